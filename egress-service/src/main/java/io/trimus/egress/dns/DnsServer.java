package io.trimus.egress.dns;

import io.netty.channel.EventLoopGroup;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import io.vertx.core.spi.VertxThreadFactory;
import io.vertx.core.spi.transport.Transport;
import org.jboss.logging.Logger;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The resolver's sockets: UDP and TCP on one address and port, on one or several Vert.x event loops. UDP hands each
 * datagram to the {@link DnsQueryHandler} and sends its answer back; TCP reads length-framed queries, several per connection,
 * and answers each as it is ready. Connections are bounded in number, in all and per source address (one sandbox
 * cannot hold every connection), closed when idle, and stop being read while too many of their queries are unanswered
 * or their answers are not being read.
 */
public final class DnsServer {
    private static final Logger LOG = Logger.getLogger(DnsServer.class);
    /** Queries of one TCP connection answered concurrently; beyond it the connection is not read. */
    static final int TCP_PIPELINE = 32;

    /**
     * Limits of the TCP side.
     *
     * @param maxTcpConnections          connections open at once, in all
     * @param maxTcpConnectionsPerSource connections open at once from one source address
     * @param tcpIdleTimeout             a connection without traffic for this long is closed
     */
    public record Limits(int maxTcpConnections, int maxTcpConnectionsPerSource, Duration tcpIdleTimeout) {
        /** Limits without a per-source bound (the total one applies). */
        public Limits(int maxTcpConnections, Duration tcpIdleTimeout) {
            this(maxTcpConnections, maxTcpConnections, tcpIdleTimeout);
        }
    }

    private final Vertx vertx;
    private final DnsQueryHandler handler;
    private final Limits limits;
    private final AtomicInteger tcpConnections = new AtomicInteger();
    /**
     * Open connections per source address; a source's entry goes when its last connection closes, so there are never
     * more entries than connections being accepted or open (bounded by the total limit).
     */
    private final ConcurrentHashMap<String, Integer> tcpConnectionsBySource = new ConcurrentHashMap<>();
    private final List<UdpListener> udp = new CopyOnWriteArrayList<>();
    /** The resolver's own event loops (see {@link #start(String, int, int)}); null while not serving. */
    private volatile EventLoopGroup loops;
    private final AtomicInteger loopThreads = new AtomicInteger();
    private final List<NetServer> tcp = new CopyOnWriteArrayList<>();
    /** Name prefix of the resolver's own event-loop threads. */
    static final String LOOP_THREAD = "trimus-dns-loop-";
    private static final int LOOP_IO_RATIO = 50;
    private static final long MAX_LOOP_EXECUTE_SECONDS = 2;
    /** Tries of an any-port start (port 0) before it fails. */
    private static final int ANY_PORT_ATTEMPTS = 5;

    public DnsServer(Vertx vertx, DnsQueryHandler handler, Limits limits) {
        this.vertx = vertx;
        this.handler = handler;
        this.limits = limits;
    }

    /** Binds UDP and then TCP to {@code host:port} on one event loop (see {@link #start(String, int, int)}). */
    public Future<Void> start(String host, int port) {
        return start(host, port, 1);
    }

    /**
     * Binds UDP and then TCP to {@code host:port} (port 0: any free UDP port, and TCP on the same one) on
     * {@code listeners} event loops of the resolver's own (threads {@value #LOOP_THREAD}N, not Vert.x's shared loops,
     * where an API request, a scrape or a batch of anomaly rows being stored would hold queries up behind it): with the
     * native transport each loop gets a UDP socket of its own on the shared
     * address (SO_REUSEPORT: the kernel spreads the sources over them) and a TCP server (Vert.x hands each accepted
     * connection to one of them), so every core answers queries; without it one loop serves. With the native
     * transport the sockets always share the address, so a second egress-service process of the same user on this
     * host (a replica) can serve it too. Fails, with nothing left bound, when any of them cannot be bound.
     */
    public Future<Void> start(String host, int port, int listeners) {
        return start(host, port, listeners, port == 0 ? ANY_PORT_ATTEMPTS : 1);
    }

    /**
     * With port 0 the UDP port is the kernel's pick, and another process may hold the same number in TCP: then all is
     * closed and a new port is picked, up to {@code attempts} times.
     */
    private Future<Void> start(String host, int port, int listeners, int attempts) {
        int count = listeners > 1 && vertx.isNativeTransportEnabled() ? listeners : 1;
        loops = ((VertxInternal) vertx).transport().eventLoopGroup(Transport.IO_EVENT_LOOP_GROUP, count,
                task -> VertxThreadFactory.INSTANCE.newVertxThread(task,
                        LOOP_THREAD + loopThreads.getAndIncrement(), false, MAX_LOOP_EXECUTE_SECONDS, TimeUnit.SECONDS),
                LOOP_IO_RATIO);
        boolean shared = vertx.isNativeTransportEnabled();
        Future<Integer> bound = listenOn(host, port, shared);
        for (int i = 1; i < count; i++) {
            bound = bound.compose(boundPort -> listenOn(host, boundPort, shared));
        }
        return bound.<Void>mapEmpty().recover(e -> close().transform(closed -> attempts > 1
                ? start(host, port, listeners, attempts - 1) : Future.failedFuture(e)));
    }

    /** One listener: a UDP socket and a TCP server on a new event-loop context; the port they are bound to. */
    private Future<Integer> listenOn(String host, int port, boolean shared) {
        VertxInternal internal = (VertxInternal) vertx;
        ContextInternal loop = internal.createEventLoopContext(loops.next(), internal.getWorkerPool(),
                Thread.currentThread().getContextClassLoader());
        Promise<Integer> listening = Promise.promise();
        loop.runOnContext(v -> bind(loop, host, port, shared).onComplete(listening));
        return listening.future();
    }

    private Future<Integer> bind(ContextInternal loop, String host, int port, boolean shared) {
        NetServer server = vertx.createNetServer(new NetServerOptions()
                .setIdleTimeout((int) Math.max(1, limits.tcpIdleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setReusePort(shared)
                .setTcpNoDelay(true));
        server.connectHandler(this::onConnection);
        return UdpListener.bind(((VertxInternal) vertx).transport(), loop,
                        new InetSocketAddress(host, port), shared, handler)
                .recover(e -> Future.failedFuture(new IllegalStateException(
                        "cannot serve DNS on " + host + ":" + port + " (UDP): " + e.getMessage(), e)))
                .compose(listener -> {
                    udp.add(listener);
                    int boundPort = listener.port();
                    return server.listen(boundPort, host)
                            .recover(e -> Future.failedFuture(new IllegalStateException("cannot serve DNS on "
                                    + host + ":" + boundPort + " (TCP): " + e.getMessage(), e)))
                            .map(listening -> {
                                tcp.add(server);
                                return boundPort;
                            });
                });
    }

    /** The bound port (the same for UDP and TCP). */
    public int port() {
        return udp.get(0).port();
    }

    /** How many UDP sockets serve the address (one per listening event loop). */
    int udpSockets() {
        return udp.size();
    }

    /** The names of the threads the UDP sockets are served on, one per socket (tests). */
    List<String> udpThreads() throws Exception {
        List<String> names = new ArrayList<>();
        for (UdpListener listener : udp) {
            names.add(listener.threadName());
        }
        return names;
    }

    /** Stops serving: closes every socket and every TCP connection. */
    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        udp.forEach(listener -> closing.add(listener.close()));
        tcp.forEach(server -> closing.add(server.close()));
        udp.clear();
        tcp.clear();
        EventLoopGroup own = loops;
        loops = null;
        Future<Void> closed = Future.join(closing).mapEmpty();
        return own == null ? closed : closed.eventually(() -> {
            Promise<Void> down = Promise.promise();
            own.shutdownGracefully(0, 1, TimeUnit.SECONDS).addListener(done -> down.complete());
            return down.future();
        });
    }

    private void onConnection(NetSocket socket) {
        String source = socket.remoteAddress().hostAddress();
        if (!openFrom(source)) {
            handler.refusedConnection(true);
            LOG.debugf("DNS TCP connection from %s refused: %d connections of that address open", source,
                    limits.maxTcpConnectionsPerSource());
            socket.close();
            return;
        }
        if (tcpConnections.incrementAndGet() > limits.maxTcpConnections()) {
            tcpConnections.decrementAndGet();
            closedFrom(source);
            handler.refusedConnection(false);
            LOG.debugf("DNS TCP connection from %s refused: %d connections open", socket.remoteAddress(),
                    limits.maxTcpConnections());
            socket.close();
            return;
        }
        socket.closeHandler(closed -> {
            tcpConnections.decrementAndGet();
            closedFrom(source);
        });
        socket.exceptionHandler(e -> socket.close());
        new TcpConnection(socket).start();
    }

    /** Counts a connection from {@code source} unless that source has its share open already. */
    private boolean openFrom(String source) {
        boolean[] opened = {false};
        tcpConnectionsBySource.compute(source, (ip, open) -> {
            int now = open == null ? 0 : open;
            if (now >= limits.maxTcpConnectionsPerSource()) {
                return open;
            }
            opened[0] = true;
            return now + 1;
        });
        return opened[0];
    }

    private void closedFrom(String source) {
        tcpConnectionsBySource.computeIfPresent(source, (ip, open) -> open > 1 ? open - 1 : null);
    }

    /** One client's TCP connection: reads queries, writes answers as they are ready, applies backpressure. */
    private final class TcpConnection {
        private final NetSocket socket;
        private final String sourceIp;
        private final Context context;
        private RecordParser reader;
        private int pending;
        private boolean paused;

        TcpConnection(NetSocket socket) {
            this.socket = socket;
            this.sourceIp = socket.remoteAddress().hostAddress();
            this.context = vertx.getOrCreateContext();
        }

        void start() {
            socket.drainHandler(drained -> readIfAble());
            reader = DnsTcpFraming.read(socket, this::onQuery, () -> {
                handler.droppedMalformed();
                socket.close();
            });
        }

        // Every handler of one connection runs on its event loop (answers are moved there), so no locks are needed.
        private void onQuery(byte[] query) {
            pending++;
            readIfAble();
            handler.handle(sourceIp, query, DnsQueryHandler.Transport.TCP)
                    .onComplete(done -> context.runOnContext(v -> {
                        pending--;
                        byte[] answer = done.result();
                        if (answer != null && answer.length > 0) {
                            socket.write(DnsTcpFraming.frame(answer));
                        }
                        readIfAble();
                    }));
        }

        private void readIfAble() {
            boolean able = pending < TCP_PIPELINE && !socket.writeQueueFull();
            if (able && paused) {
                paused = false;
                reader.resume();
            } else if (!able && !paused) {
                paused = true;
                reader.pause();
            }
        }
    }
}
