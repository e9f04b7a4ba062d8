package io.trimus.egress.proxy;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The explicit egress proxy's listening socket (Vert.x, on the service's event loops): accepts sandbox connections,
 * holds each sandbox (source address) to its share of connections, and hands every accepted one to a
 * {@link ProxyConnection}.
 */
public final class ProxyServer {

    /**
     * Limits of the proxy.
     *
     * @param maxHeadBytes             longest request head read
     * @param maxConnectionsPerSandbox connections one source address may hold open at once
     * @param idleTimeout              a connection with no traffic either way for this long is closed
     * @param totalTimeout             a connection is closed after this long whatever its traffic
     * @param connectTimeout           how long dialling a destination may take
     */
    public record Limits(int maxHeadBytes, int maxConnectionsPerSandbox, Duration idleTimeout, Duration totalTimeout,
                         Duration connectTimeout) {
        public Limits {
            if (maxHeadBytes < 64 || maxConnectionsPerSandbox < 1) {
                throw new IllegalArgumentException("TRIMUS_EGRESS_PROXY_MAX_HEAD_BYTES must be at least 64 and"
                        + " TRIMUS_EGRESS_PROXY_MAX_CONNECTIONS_PER_SANDBOX at least 1");
            }
        }
    }

    /** What every connection shares. */
    record Parts(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                 NetClient dialer, Limits limits) {
    }

    private final Vertx vertx;
    private final Parts parts;
    private final ConcurrentHashMap<String, Integer> openBySource = new ConcurrentHashMap<>();
    private volatile NetServer server;

    public ProxyServer(Vertx vertx, ProxyPolicy policy, DestinationResolver resolver, AnomalyRecorder anomalies,
                       Limits limits) {
        this.vertx = vertx;
        NetClient dialer = vertx.createNetClient(new NetClientOptions()
                .setConnectTimeout((int) Math.max(1, limits.connectTimeout().toMillis()))
                .setIdleTimeout((int) Math.max(1, limits.idleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setTcpNoDelay(true));
        this.parts = new Parts(vertx, policy, resolver, anomalies, dialer, limits);
    }

    /** Listens on {@code host:port} (0: any free port); fails when the address cannot be bound. */
    public Future<Void> start(String host, int port) {
        NetServer listening = vertx.createNetServer(new NetServerOptions()
                .setIdleTimeout((int) Math.max(1, parts.limits().idleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setTcpNoDelay(true));
        listening.connectHandler(this::onConnection);
        return listening.listen(port, host)
                .recover(e -> Future.failedFuture(new IllegalStateException(
                        "cannot serve the egress proxy on " + host + ":" + port + ": " + e.getMessage(), e)))
                .map(bound -> {
                    server = bound;
                    return null;
                });
    }

    /** The bound port. */
    public int port() {
        return server.actualPort();
    }

    /** Connections open now from {@code sourceIp}. */
    public int openFrom(String sourceIp) {
        return openBySource.getOrDefault(sourceIp, 0);
    }

    /** Stops listening and closes every connection and the dialer. */
    public Future<Void> close() {
        Future<Void> closed = server == null ? Future.succeededFuture() : server.close();
        return closed.eventually(() -> parts.dialer().close());
    }

    private void onConnection(NetSocket socket) {
        String source = socket.remoteAddress().hostAddress();
        Context context = vertx.getOrCreateContext();
        boolean admitted = claim(source);
        ProxyConnection connection = new ProxyConnection(parts, socket, context,
                admitted ? () -> release(source) : () -> { });
        if (admitted) {
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
