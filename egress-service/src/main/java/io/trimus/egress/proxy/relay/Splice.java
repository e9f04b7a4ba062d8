package io.trimus.egress.proxy.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.NetSocketImpl;

import java.util.ArrayDeque;
import java.util.function.LongConsumer;

/**
 * One direction of an open tunnel relayed with Netty's own buffers: each {@code ByteBuf} the source's channel reads
 * is written, as it is, to the sink's channel (no copy into a heap buffer and back, where Vert.x's
 * {@code NetSocket} handler would copy every read twice), counted, and released by the write. Backpressure is the
 * channels' own: while the sink's channel is not writable, the source's channel stops reading ({@code autoRead}) until
 * the sink drains. Everything else stays Vert.x's: the idle timeout (the channel's {@code IdleStateHandler} sees the
 * reads and writes), the close and end handlers, {@link NetSocket#close()}.
 *
 * <p>The switch keeps the order of the bytes: what the source's Vert.x stream had already queued (read while it was
 * paused) is relayed first, as {@link Relay#forward} does, up to an empty marker buffer queued behind it (Netty never
 * reads an empty buffer); the channel does not read meanwhile, and a buffer read before the marker anyway waits for
 * it.
 */
public final class Splice {
    private final NetSocket source;
    private final NetSocket sink;
    private final ConnectionBase sourceChannel;
    private final ConnectionBase sinkChannel;
    private final LongConsumer counter;
    /** Buffers read raw before the marker: they follow what the Vert.x stream had queued. */
    private ArrayDeque<ByteBuf> early;
    private boolean switched;

    private Splice(NetSocket source, NetSocket sink, LongConsumer counter) {
        this.source = source;
        this.sink = sink;
        this.sourceChannel = (ConnectionBase) source;
        this.sinkChannel = (ConnectionBase) sink;
        this.counter = counter;
    }

    /**
     * Relays everything {@code from} sends to {@code to} from now on, on {@code from}'s event loop; closing is the
     * caller's business, as with {@link Relay#pipe}.
     */
    public static void pipe(NetSocket from, NetSocket to, LongConsumer counter) {
        Splice splice = new Splice(from, to, counter);
        Context context = splice.sourceChannel.getContext();
        if (Vertx.currentContext() == context) {
            splice.start();
        } else {
            context.runOnContext(v -> splice.start());
        }
    }

    private void start() {
        sourceChannel.doPause();
        source.handler(this::queued);
        // behind whatever the stream holds; delivered at once when it holds nothing and is not paused
        ((NetSocketImpl) source).handleMessage(Unpooled.EMPTY_BUFFER);
        ((NetSocketImpl) source).messageHandler(this::read);
        source.resume();
    }

    /** What the Vert.x stream delivers: what it had queued before the switch, then the marker. */
    private void queued(Buffer data) {
        if (data.length() > 0) {
            Relay.forward(source, sink, data, counter);
            return;
        }
        switched = true;
        ArrayDeque<ByteBuf> waiting = early;
        early = null;
        if (waiting != null) {
            for (ByteBuf buf = waiting.poll(); buf != null; buf = waiting.poll()) {
                write(buf);
            }
        }
        if (!sinkChannel.isNotWritable()) {
            sourceChannel.doResume();
        } else {
            throttle();
        }
    }

    /** A message the source's channel read, after the switch began. */
    private void read(Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!switched) {
            if (early == null) {
                early = new ArrayDeque<>(2);
            }
            early.add(buf);
            return;
        }
        write(buf);
        if (sinkChannel.isNotWritable()) {
            throttle();
        }
    }

    private void write(ByteBuf buf) {
        int length = buf.readableBytes();
        if (length == 0) {
            buf.release();
            return;
        }
        counter.accept(length);
        sinkChannel.writeToChannel(buf);
    }

    /** The sink is full: the source reads nothing more until it drains. */
    private void throttle() {
        sourceChannel.doPause();
        sink.drainHandler(drained -> {
            sink.drainHandler(null);
            sourceChannel.doResume();
        });
        if (!sinkChannel.isNotWritable()) {
            // drained (on its own event loop) before the handler was set
            sourceChannel.doResume();
        }
    }
}
