package io.trimus.egress.proxy.relay;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

import java.util.function.LongConsumer;

/**
 * Copies bytes between the two sockets of a proxied connection with backpressure: when the receiving side's write
 * queue is full the sending side is paused until it drains, so a slow reader never makes the proxy buffer without
 * bound. Every byte copied is counted.
 */
public final class Relay {
    private Relay() {
    }

    /** Copies everything {@code from} sends to {@code to} from now on; closing is the caller's business. */
    public static void pipe(NetSocket from, NetSocket to, LongConsumer counter) {
        from.handler(data -> forward(from, to, data, counter));
        from.resume();
    }

    /** Writes {@code data} from {@code source} onto {@code sink}, pausing {@code source} while {@code sink} is full. */
    public static void forward(NetSocket source, NetSocket sink, Buffer data, LongConsumer counter) {
        if (data.length() == 0) {
            return;
        }
        counter.accept(data.length());
        sink.write(data);
        if (sink.writeQueueFull()) {
            source.pause();
            sink.drainHandler(drained -> source.resume());
        }
    }

    /** Closes {@code socket} once what was written to it is sent, so a refusal's answer or a tunnel's last bytes arrive. */
    public static void closeAfterFlush(NetSocket socket) {
        socket.write(Buffer.buffer()).onComplete(flushed -> socket.close());
    }

    /** Writes {@code last} (a refusal's answer) onto {@code socket}, then closes it once that is sent. */
    public static void closeAfterWriting(NetSocket socket, Buffer last) {
        socket.write(last).onComplete(written -> socket.close());
    }
}
