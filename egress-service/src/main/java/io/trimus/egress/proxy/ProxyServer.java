package io.trimus.egress.proxy;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.proxy.destination.DestinationResolver;
import io.trimus.egress.proxy.intercept.MaskingInterceptor;
import io.trimus.egress.tunnelling.TunnellingWatch;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The egress proxy's listening sockets (Vert.x, on the service's event loops): the explicit proxy port and the
 * transparent 443 and 80 the resolver steers allow-listed names to. Accepts sandbox connections, holds each sandbox
 * (source address) to its share of connections across all of them, and hands every accepted one to a
 * {@link ProxyConnection}; when the policy changes, checks the open ones again and closes those it no longer admits.
 */
public final class ProxyServer {

    /** What every connection shares; {@code masked} and {@code masking} are null where no masks are served. */
    record Parts(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                 ConnectionRecorder connections, NetClient dialer, ProxyLimits limits, MaskedSecrets masked,
                 MaskingInterceptor masking, TunnellingWatch tunnelling) {
    }

    /** How often the policy's change count is looked at: a change closes what it no longer admits within this. */
    static final long RECHECK_MS = 250;

    private final Vertx vertx;
    private final Parts parts;
    private final ConcurrentHashMap<String, Integer> openBySource = new ConcurrentHashMap<>();
    /** Every connection accepted and not yet closed, checked again when the policy changes. */
    private final Set<ProxyConnection> open = ConcurrentHashMap.newKeySet();
    /** The policy's change count the open connections were last checked at. */
    private long checkedAt;
    private long sweepTimer = -1;
    private final Map<ProxyWay, List<NetServer>> servers = new ConcurrentHashMap<>();
    private final int eventLoops;
    /** The verticles that hold the servers, undeployed at close. */
    private final List<String> deployments = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * A server that also applies the sandboxes' masked secrets, terminating TLS to their hosts in {@code masking}.
     *
     * @param eventLoops how many event loops accept (and then carry) connections on each port
     * @param masked     the sandboxes' masked secrets; null serves no masks (a plain proxy)
     * @param masking    where TLS to hosts of masked secrets ends; null with {@code masked}
     */
    public ProxyServer(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                       ConnectionRecorder connections, ProxyLimits limits, int eventLoops, MaskedSecrets masked,
                       MaskingInterceptor masking) {
        this(vertx, policy, resolver, anomalies, connections, limits, eventLoops, masked, masking, null);
    }

    /**
     * A server that also scores the hosts sandboxes connect to for tunnelling, and refuses those under a base domain
     * that is refused to the sandbox.
     *
     * @param tunnelling the service's watch; null scores nothing
     */
    public ProxyServer(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                       ConnectionRecorder connections, ProxyLimits limits, int eventLoops, MaskedSecrets masked,
                       MaskingInterceptor masking, TunnellingWatch tunnelling) {
        this.vertx = vertx;
        this.eventLoops = Math.max(1, eventLoops);
        NetClient dialer = vertx.createNetClient(new NetClientOptions()
                .setConnectTimeout((int) Math.max(1, limits.connectTimeout().toMillis()))
                .setIdleTimeout((int) Math.max(1, limits.idleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setTcpNoDelay(true));
        this.parts = new Parts(vertx, policy, resolver, anomalies, connections, dialer, limits, masked, masking,
                tunnelling);
    }

    /**
     * Every {@value #RECHECK_MS} ms, when the policy changed since the last look (a list, a mode or a registration,
     * changed here or announced by another replica), every open connection is checked against it again and those it
     * no longer admits are closed ({@code ProxyConnection#recheck}). Started with the first listener.
     */
    private synchronized void watchPolicy() {
        if (sweepTimer >= 0) {
            return;
        }
        checkedAt = parts.policy().changes();
        sweepTimer = vertx.setPeriodic(RECHECK_MS, t -> {
            long now = parts.policy().changes();
            if (now != checkedAt) {
                checkedAt = now;
                open.forEach(ProxyConnection::recheck);
            }
        });
    }

    /** Serves the explicit proxy on {@code host:port} (0: any free port); fails when the address cannot be bound. */
    public Future<Void> start(String host, int port) {
        return listen(ProxyWay.EXPLICIT, host, port, -1);
    }

    /**
     * Serves {@code way} on {@code host:port} (0: any free port); fails when the address cannot be bound.
     *
     * @param destinationPort for a transparent way, the port its connections go to at their destination (443, 80;
     *                        another only in tests); ignored for the explicit proxy, whose requests name it
     */
    public Future<Void> listen(ProxyWay way, String host, int port, int destinationPort) {
        watchPolicy();
        // one server per event loop on the same address: Vert.x shares the socket and spreads accepted connections
        // over them, so connections are carried by every core, not by the one context a server made here would have.
        // Vert.x shares a socket by the port asked for, so "any free port" (tests) gets one server.
        int servers = port == 0 ? 1 : eventLoops;
        return bind(way, host, port, destinationPort).compose(first -> {
            List<Future<NetServer>> more = new ArrayList<>();
            for (int i = 1; i < servers; i++) {
                more.add(bind(way, host, port, destinationPort));
            }
            return Future.all(more).recover(failed -> {
                first.close();
                more.forEach(other -> other.onSuccess(NetServer::close));
                return Future.failedFuture(failed);
            }).map(all -> {
                List<NetServer> bound = new ArrayList<>();
                bound.add(first);
                more.forEach(other -> bound.add(other.result()));
                this.servers.put(way, List.copyOf(bound));
                return null;
            });
        });
    }

    /** One server for {@code way} in a verticle of its own, so on an event-loop context of its own. */
    private Future<NetServer> bind(ProxyWay way, String host, int port, int destinationPort) {
        Promise<NetServer> bound = Promise.promise();
        vertx.deployVerticle(new AbstractVerticle() {
            @Override
            public void start(Promise<Void> started) {
                // SO_REUSEPORT: a second egress-service process on this host can serve the same address, the kernel
                // spreading new connections over both (only processes of the same user may join; see docs/scaling.md)
                NetServer listening = vertx.createNetServer(new NetServerOptions()
                        .setReusePort(true)
                        .setIdleTimeout((int) Math.max(1, parts.limits().idleTimeout().toMillis()))
                        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                        .setTcpNoDelay(true));
                listening.connectHandler(socket -> onConnection(socket, way, destinationPort));
                listening.listen(port, host)
                        .recover(e -> Future.failedFuture(new IllegalStateException(
                                "cannot serve the egress proxy (" + way.name().toLowerCase(java.util.Locale.ROOT)
                                        + ") on " + host + ":" + port + ": " + e.getMessage(), e)))
                        .onComplete(done -> {
                            bound.handle(done);
                            started.complete();
                        });
            }
        }).onSuccess(deployments::add);
        return bound.future();
    }

    /** The explicit proxy's bound port. */
    public int port() {
        return port(ProxyWay.EXPLICIT).orElseThrow();
    }

    /** The port {@code way} is served on, when it is. */
    public Optional<Integer> port(ProxyWay way) {
        return Optional.ofNullable(servers.get(way)).map(bound -> bound.get(0).actualPort());
    }

    /** Connections open now from {@code sourceIp}. */
    public int openFrom(String sourceIp) {
        return openBySource.getOrDefault(sourceIp, 0);
    }

    /** Stops listening and closes every connection and the dialer. */
    public Future<Void> close() {
        synchronized (this) {
            if (sweepTimer >= 0) {
                vertx.cancelTimer(sweepTimer);
                sweepTimer = -1;
            }
        }
        List<Future<Void>> closing = new ArrayList<>();
        servers.values().forEach(bound -> bound.forEach(server -> closing.add(server.close())));
        servers.clear();
        deployments.forEach(id -> closing.add(vertx.undeploy(id).recover(gone -> Future.succeededFuture())));
        deployments.clear();
        if (parts.masking() != null) {
            closing.add(parts.masking().close());
        }
        return Future.join(closing).<Void>mapEmpty().eventually(() -> parts.dialer().close());
    }

    private void onConnection(NetSocket socket, ProxyWay way, int destinationPort) {
        String source = socket.remoteAddress().hostAddress();
        Context context = vertx.getOrCreateContext();
        boolean admitted = claim(source);
        ProxyConnection[] self = new ProxyConnection[1];
        ProxyConnection connection = new ProxyConnection(parts, socket, context, way, destinationPort,
                admitted ? () -> {
                    open.remove(self[0]);
                    release(source);
                } : () -> { });
        self[0] = connection;
        if (admitted) {
            open.add(connection);
            connection.start();
        } else {
            connection.refuseAtAccept(ProxyRefusal.TOO_MANY_CONNECTIONS);
        }
    }

    private boolean claim(String source) {
        boolean[] claimed = {false};
        openBySource.compute(source, (ip, open) -> {
            int now = open == null ? 0 : open;
            if (now >= parts.limits().maxConnectionsPerSandbox()) {
                return open;
            }
            claimed[0] = true;
            return now + 1;
        });
        return claimed[0];
    }

    private void release(String source) {
        openBySource.computeIfPresent(source, (ip, open) -> open > 1 ? open - 1 : null);
    }
}
