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
 *
 * <p>Where both channels allow it ({@link Tunnel}), the direction goes on by the kernel once the switch is done: a
 * {@link KernelSplice} task, queued each time the source's reading resumes, takes the reads over; what is read as
 * buffers before it, and at the source's end, is relayed here as above.
 */
final class Splice {
    private final NetSocket source;
    private final NetSocket sink;
    private final ConnectionBase sourceChannel;
    private final ConnectionBase sinkChannel;
    private final LongConsumer counter;
    /** The kernel's splice of this direction, null when the bytes go as buffers only. */
    private KernelSplice kernel;
    /** Bytes this direction moved so far, both ways of carrying them (the tunnel's idle watch compares it). */
    private long moved;
    /** Buffers read raw before the marker: they follow what the Vert.x stream had queued. */
    private ArrayDeque<ByteBuf> early;
    private boolean switched;

    private Splice(NetSocket source, NetSocket sink, LongConsumer counter) {
        this.source = source;
        this.sink = sink;
        this.sourceChannel = (ConnectionBase) source;
        this.sinkChannel = (ConnectionBase) sink;
        this.counter = n -> {
            moved += n;
            counter.accept(n);
        };
    }

    /**
     * Relays everything {@code from} sends to {@code to} from now on, on {@code from}'s event loop; closing is the
     * caller's business, as with {@link Relay#pipe}.
     */
    static Splice pipe(NetSocket from, NetSocket to, LongConsumer counter) {
        return pipe(from, to, counter, false);
    }

    /**
     * As {@link #pipe(NetSocket, NetSocket, LongConsumer)}; with {@code kernel}, by splice(2) once the switch is
     * done (the caller, on the event loop both channels share, checked they allow it).
     */
    static Splice pipe(NetSocket from, NetSocket to, LongConsumer counter, boolean kernel) {
        Splice splice = new Splice(from, to, counter);
        if (kernel) {
            splice.kernel = new KernelSplice(splice.sourceChannel.channel(), splice.sinkChannel.channel(), splice.counter);
        }
        Context context = splice.sourceChannel.getContext();
        if (Vertx.currentContext() == context) {
            splice.start();
        } else {
            context.runOnContext(v -> splice.start());
        }
        return splice;
    }

    /** Bytes this direction moved so far, the kernel's splice counted up to now; on the channels' event loop. */
    long moved() {
        if (kernel != null) {
            kernel.sync();
        }
        return moved;
    }

    /** The source reads again: by the kernel when it may, else as buffers. */
    private void resume() {
        if (kernel != null) {
            kernel.start();
        }
        sourceChannel.doResume();
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
            resume();
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
            resume();
        });
        if (!sinkChannel.isNotWritable()) {
            // drained (on its own event loop) before the handler was set
            sink.drainHandler(null);
            resume();
        }
    }
}
