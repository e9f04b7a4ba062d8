package io.trimus.egress.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded, lock-free queue of connection records between the proxy's event loops and the database writer. When it
 * is full the new record is refused, never waited for: the records already queued are as worth keeping, and a caller
 * on an event loop must not block.
 */
final class ConnectionBuffer {
    private final Queue<ConnectionRecord> queue = new ConcurrentLinkedQueue<>();
    // reserved before the record is queued, so the queue never holds more than capacity
    private final AtomicInteger size = new AtomicInteger();
    private final int capacity;

    ConnectionBuffer(int capacity) {
        this.capacity = Math.max(1, capacity);
    }

    /** Queues the record unless the buffer is full; false when it was refused. */
    boolean offer(ConnectionRecord record) {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            return false;
        }
        queue.add(record);
        return true;
    }

    /** Takes up to {@code max} records, oldest first. */
    List<ConnectionRecord> drain(int max) {
        List<ConnectionRecord> batch = new ArrayList<>(Math.min(max, Math.max(0, size.get())));
        ConnectionRecord next;
        while (batch.size() < max && (next = queue.poll()) != null) {
            batch.add(next);
            size.decrementAndGet();
        }
        return batch;
    }

    /** Records queued now (reserved ones included). */
    int size() {
        return size.get();
    }

    int capacity() {
        return capacity;
    }
}
