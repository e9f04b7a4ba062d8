package io.trimus.egress.anomaly;

import io.trimus.events.EgressAnomaly;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Moves the sending of anomaly events off the caller's thread (the resolver's event loops, the proxy's): an event is
 * put on a bounded queue and a thread of its own hands it to the sink (the Kafka emitter, whose send serialises the
 * event and may wait for the broker's metadata). Nothing is dropped: when the queue is full the event is handed to the
 * sink on the caller's thread, as before this existed, and counted ({@link #inline()}), so a flood costs the caller
 * time, never an event. {@link #close} hands over what is queued before it returns.
 */
final class AnomalyHandOff implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AnomalyHandOff.class);
    /** How long the thread waits for an event before it looks whether it is closed. */
    private static final long IDLE_POLL_MILLIS = 200;

    private final ArrayBlockingQueue<EgressAnomaly> queue;
    private final Consumer<EgressAnomaly> sink;
    private final Thread thread;
    /** Events queued and not yet handed to the sink (the one being handed over included). */
    private final AtomicLong pending = new AtomicLong();
    private final LongAdder inline = new LongAdder();
    private volatile boolean closed;

    /**
     * @param capacity events queued at most; beyond it they are handed over on the caller's thread
     * @param sink     takes one event; must not throw (a throw is logged and the next event goes on)
     */
    AnomalyHandOff(String threadName, int capacity, Consumer<EgressAnomaly> sink) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.sink = sink;
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues the event for the thread; when the queue is full (or closed), hands it to the sink right here. */
    void offer(EgressAnomaly anomaly) {
        if (!closed) {
            pending.incrementAndGet();
            if (queue.offer(anomaly)) {
                return;
            }
            pending.decrementAndGet();
        }
        inline.increment();
        handOver(anomaly);
    }

    /** Events handed to the sink on the caller's thread because the queue was full or closed. */
    long inline() {
        return inline.sum();
    }

    /** Events waiting in the queue. */
    int queued() {
        return queue.size();
    }

    /**
     * Waits, up to {@code timeout}, until every event queued so far has been handed to the sink, then stops the thread;
     * later events are handed over on their caller's thread. Returns whether all were handed over in time.
     */
    boolean close(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pending.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        closed = true;
        // an offer that saw closed=false just before may have queued after the wait: hand it over here
        for (EgressAnomaly left; (left = queue.poll()) != null; ) {
            handOver(left);
            pending.decrementAndGet();
        }
        return pending.get() <= 0;
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    private void run() {
        while (!closed) {
            EgressAnomaly next;
            try {
                next = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                continue; // the loop's condition decides
            }
            if (next != null) {
                handOver(next);
                pending.decrementAndGet();
            }
        }
    }

    private void handOver(EgressAnomaly anomaly) {
        try {
            sink.accept(anomaly);
        } catch (RuntimeException e) {
            LOG.errorf("could not hand anomaly %s over: %s", anomaly.id(), e.getMessage());
        }
    }
}
