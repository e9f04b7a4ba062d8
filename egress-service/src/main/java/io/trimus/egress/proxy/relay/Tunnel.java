package io.trimus.egress.proxy.relay;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.ConnectionBase;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * An opaque tunnel's two directions, each a {@link Splice}. Where both sockets are epoll channels on one event loop
 * (Netty's native transport; Vert.x dials from the client's event loop) and Netty's splice task can be read
 * ({@link KernelSplice#AVAILABLE}), each direction is carried by the kernel ({@code splice(2)}) once it has relayed
 * what was read before: both channels are switched to level-triggered epoll (what Netty's {@code spliceTo} asks), and
 * since spliced bytes pass neither channel's pipeline, Vert.x's idle handlers, which would see no reads and close a
 * busy tunnel, are replaced by the tunnel's own watch: a look every quarter of the idle timeout at the bytes both
 * directions moved, the two sockets closed when none moved for the idle timeout. Elsewhere (NIO transport, channels
 * on two event loops) both directions go as Netty's buffers, as {@link Splice} relays them, and Vert.x's idle timeout
 * stays.
 */
public final class Tunnel {
    private final NetSocket client;
    private final NetSocket upstream;
    private Splice up;
    private Splice down;
    private final boolean kernel;
    private ScheduledFuture<?> watch;
    private long lastMoved = -1;
    private long quietSince;

    private Tunnel(NetSocket client, NetSocket upstream, boolean kernel) {
        this.client = client;
        this.upstream = upstream;
        this.kernel = kernel;
    }

    /**
     * Relays {@code client}'s bytes to {@code upstream} (counted by {@code up}) and back ({@code down}) from now on;
     * closing is the caller's business, but for an idle tunnel carried by the kernel (closed after
     * {@code idleTimeout} without a byte either way, as Vert.x's idle timeout would). Called on {@code client}'s
     * event loop.
     */
    public static Tunnel open(NetSocket client, NetSocket upstream, LongConsumer up, LongConsumer down,
                              Duration idleTimeout) {
        Channel from = ((ConnectionBase) client).channel();
        Channel to = ((ConnectionBase) upstream).channel();
        boolean kernel = spliceable(from, to);
        Tunnel tunnel = new Tunnel(client, upstream, kernel);
        if (kernel) {
            KernelSplice.levelTriggered(from);
            KernelSplice.levelTriggered(to);
            if (idleTimeout.toMillis() > 0) {
                dropIdleHandler(from.pipeline());
                dropIdleHandler(to.pipeline());
                tunnel.watch(from, idleTimeout);
            }
        }
        tunnel.up = Splice.pipe(client, upstream, up, kernel);
        tunnel.down = Splice.pipe(upstream, client, down, kernel);
        return tunnel;
    }

    /** Whether the two channels can splice to each other, looked at on {@code from}'s event loop. */
    static boolean spliceable(Channel from, Channel to) {
        return KernelSplice.AVAILABLE && from instanceof AbstractEpollStreamChannel
                && to instanceof AbstractEpollStreamChannel && from.eventLoop() == to.eventLoop()
                && from.eventLoop().inEventLoop() && from.isActive() && to.isActive();
    }

    /** Whether the tunnel is carried by the kernel ({@code splice(2)}), not as buffers in the JVM. */
    public boolean spliced() {
        return kernel;
    }

    /**
     * Hands every byte moved so far to the counters (the kernel's splice is counted when it completes or is looked
     * at): called before the connection's counts are recorded. On the client's event loop.
     */
    public void settle() {
        if (up != null) {
            up.moved();
        }
        if (down != null) {
            down.moved();
        }
    }

    /** Bytes moved by splice(2) by every tunnel of this process so far. */
    public static long splicedBytes() {
        return KernelSplice.splicedBytes();
    }

    private void watch(Channel channel, Duration idleTimeout) {
        long idleNanos = idleTimeout.toNanos();
        long period = Math.max(1, idleTimeout.toMillis() / 4);
        quietSince = System.nanoTime();
        watch = channel.eventLoop().scheduleAtFixedRate(() -> look(idleNanos), period, period, TimeUnit.MILLISECONDS);
        channel.closeFuture().addListener(closed -> watch.cancel(false));
        ((ConnectionBase) upstream).channel().closeFuture().addListener(closed -> watch.cancel(false));
    }

    private void look(long idleNanos) {
        long moved = (up == null ? 0 : up.moved()) + (down == null ? 0 : down.moved());
        long now = System.nanoTime();
        if (moved != lastMoved) {
            lastMoved = moved;
            quietSince = now;
        } else if (now - quietSince >= idleNanos) {
            // as Vert.x's idle handler closes a connection: at once, what waits to be written is dropped
            watch.cancel(false);
            ((ConnectionBase) upstream).channel().close();
            ((ConnectionBase) client).channel().close();
        }
    }

    private static void dropIdleHandler(ChannelPipeline pipeline) {
        if (pipeline.get("idle") != null) {
            pipeline.remove("idle");
        }
    }
}
