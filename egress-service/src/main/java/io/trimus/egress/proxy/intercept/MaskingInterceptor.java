package io.trimus.egress.proxy.intercept;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.masks.EchoSwap;
import io.trimus.egress.masks.MaskSwap;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.TrustOptions;

import javax.net.ssl.X509ExtendedTrustManager;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map.Entry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Where a sandbox's TLS connection to a host of a masked secret ends. The proxy connection, having admitted the host
 * and checked the ClientHello names it, pipes the sandbox's TLS bytes to a loopback TLS server of this class, one per
 * egress CA, whose leaf certificate for the SNI name is signed by the CA placed in the sandbox. The requests inside are
 * read strictly and checked ({@link InterceptedRequests}: malformed framing, TRACE, another authority refused), then
 * handed over loopback to this class's HTTP server, which swaps each request's masked secrets ({@link MaskSwap}) and
 * forwards it over a new TLS connection to the address that passed the proxy's checks, verifying the real server's
 * certificate for the host. The response streams back as it arrives (SSE and chunked bodies are never buffered
 * whole), every real value it echoes swapped back for the surrogate ({@link EchoSwap}). Each loopback connection is
 * matched to its sandbox by the port it was dialled from, registered before its first byte is sent.
 */
public final class MaskingInterceptor {
    /**
     * Not forwarded: the hop-by-hop headers, Host (set from the admitted host), and Expect, which this server answers
     * itself ({@code 100 Continue}, once the request passed its checks and the host took the connection) so the body
     * streams on without a second handshake upstream. A WebSocket handshake keeps its Upgrade and Connection
     * ({@link WebSocketSplice}).
     */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "te",
            "trailer", "transfer-encoding", "upgrade", "proxy-authenticate", "host", "expect");

    /** Upstream connections kept per host and address, far above what the per-sandbox limits let a few use. */
    static final int MAX_POOL_PER_HOST = 4096;

    private final Vertx vertx;
    private final LeafKeys keys;
    private final AnomalyRecorder anomalies;
    private final HttpClient upstream;
    private final HttpClient upgrades;
    private final NetClient loopback;
    private final int maxHeadBytes;
    private final Map<String, Future<NetServer>> servers = new ConcurrentHashMap<>();
    private volatile Future<HttpServer> http;
    /** Connections from the proxy to a TLS server, by the proxy's local port. */
    private final Map<Integer, InterceptedTarget> targets = new ConcurrentHashMap<>();
    /** Connections from an {@link InterceptedRequests} to the HTTP server, by their local port. */
    private final Map<Integer, InterceptedTarget> requests = new ConcurrentHashMap<>();

    /**
     * @param trust        whom to trust for the real hosts ({@link UpstreamTrust})
     * @param limits       the largest request head read from a sandbox; timeouts
     */
    public MaskingInterceptor(Vertx vertx, LeafKeys keys, AnomalyRecorder anomalies, X509ExtendedTrustManager trust,
                              ProxyLimits limits) {
        this.vertx = vertx;
        this.keys = keys;
        this.anomalies = anomalies;
        this.maxHeadBytes = limits.maxHeadBytes();
        this.loopback = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
        this.upstream = vertx.createHttpClient(upstreamOptions(trust, limits));
        // WebSocket handshakes get connections of their own: one that switches becomes a sandbox's tunnel, so it
        // never comes from (nor, after any other answer, goes back to) the pool shared by every sandbox
        this.upgrades = vertx.createHttpClient(upstreamOptions(trust, limits));
    }

    private static HttpClientOptions upstreamOptions(X509ExtendedTrustManager trust, ProxyLimits limits) {
        return new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(TrustOptions.wrap(trust))
                .setVerifyHost(true)
                .setForceSni(true)
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(true)
                // connections to a host are pooled for every sandbox: a small pool would let one sandbox's long
                // streams queue every other sandbox's requests; each sandbox's own connections are bounded upstream
                .setMaxPoolSize(MAX_POOL_PER_HOST)
                .setConnectTimeout((int) Math.max(1, limits.connectTimeout().toMillis()))
                .setIdleTimeout((int) Math.max(1, limits.idleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxHeaderSize(64 * 1024)
                .setDecompressionSupported(false);
    }

    /**
     * Dials the TLS server for {@code target}'s CA from {@code dialer} and registers the connection as carrying
     * {@code target}, before the socket is handed back (so before its first byte).
     */
    public Future<NetSocket> connect(InterceptedTarget target, NetClient dialer) {
        String ca = target.masks().caFingerprint();
        Future<NetServer> server = servers.computeIfAbsent(ca, this::start);
        return server.onFailure(failed -> servers.remove(ca, server))
                .compose(started -> dialer.connect(started.actualPort(), "127.0.0.1"))
                .onSuccess(socket -> targets.put(socket.localAddress().port(), target));
    }

    /** The fingerprint of the active egress CA, for a sandbox without masked secrets ({@link LeafKeys#active}). */
    public Future<String> activeCa() {
        return keys.active();
    }

    /** Stops every server and both clients. */
    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        servers.values().forEach(server -> closing.add(server.compose(NetServer::close).recover(e ->
                Future.succeededFuture())));
        servers.clear();
        Future<HttpServer> started = http;
        if (started != null) {
            closing.add(started.compose(HttpServer::close).recover(e -> Future.succeededFuture()));
        }
        return Future.join(closing).<Void>mapEmpty().eventually(() -> upstream.close())
                .eventually(() -> upgrades.close())
                .eventually(() -> loopback.close());
    }

    /** The TLS server of one egress CA: each connection it accepts goes through {@link InterceptedRequests}. */
    private Future<NetServer> start(String caFingerprint) {
        return httpServer().compose(plain -> keys.of(caFingerprint)).compose(keyManager -> vertx.createNetServer(
                        new NetServerOptions()
                                .setSsl(true)
                                .setKeyCertOptions(KeyCertOptions.wrap(keyManager))
                                .setTcpNoDelay(true)
                                .setHost("127.0.0.1")
                                .setPort(0))
                .connectHandler(this::accepted)
                .listen());
    }

    private void accepted(NetSocket socket) {
        InterceptedTarget target = targets.remove(socket.remoteAddress().port());
        if (target == null) {
            socket.close();
            return;
        }
        new InterceptedRequests(socket, target, anomalies, maxHeadBytes).start(this::toHttpServer);
    }

    /** A loopback connection to the HTTP server, matched to {@code target} before its first byte. */
    private Future<NetSocket> toHttpServer(InterceptedTarget target) {
        return httpServer().compose(server -> loopback.connect(server.actualPort(), "127.0.0.1"))
                .onSuccess(socket -> {
                    int port = socket.localAddress().port();
                    requests.put(port, target);
                    socket.closeHandler(gone -> requests.remove(port));
                });
    }

    private synchronized Future<HttpServer> httpServer() {
        if (http == null || http.failed()) {
            http = vertx.createHttpServer(new HttpServerOptions()
                            // 100 Continue only once the request passed the checks: a refusal is answered
                            // before the sandbox sends the body
                            .setHandle100ContinueAutomatically(false)
                            // an h2c upgrade is not carried: its Upgrade is dropped and it is answered over 1.1
                            .setHttp2ClearTextEnabled(false)
                            // a head the request reader passed, with a Host it may have added
                            .setMaxHeaderSize(maxHeadBytes + 1024)
                            .setMaxInitialLineLength(maxHeadBytes)
                            .setHost("127.0.0.1")
                            .setPort(0))
                    .requestHandler(this::handle)
                    .listen();
        }
        return http;
    }

    private void handle(HttpServerRequest request) {
        InterceptedTarget target = requests.get(request.remoteAddress().port());
        if (target == null) {
            refuse(request, 502, "the proxy lost track of this connection");
            return;
        }
        HostAndPort authority = request.authority();
        if (authority == null || !ProxyPolicy.sameHost(target.host(), authority.host())
                || authority.port() != -1 && authority.port() != target.port()) {
            anomalies.record(target.sandbox(), target.sourceIp(), target.host(), "TLS",
                    ProxyRefusal.HOST_MISMATCH.reason(), true);
            refuse(request, 421, "a connection may carry requests for the host it was opened for only");
            return;
        }
        if (RequestRulesGate.denied(request, target, anomalies)) {
            return;
        }
        MaskSwap.Outcome swapped = MaskSwap.apply(target.host(), request.uri(), request.headers().entries(),
                target.masks());
        if (!swapped.allowed()) {
            anomalies.record(target.sandbox(), target.sourceIp(), target.host(), "TLS",
                    ProxyRefusal.MASKED_OUT_OF_SCOPE.reason(), true);
            refuse(request, 403, "the request carries masked secret " + swapped.outOfScope()
                    + ", which may not be sent to " + target.host());
            return;
        }
        target.count(swapped.swaps());
        forward(request, target, swapped.headers(), EchoSwap.of(target.masks(), swapped.encoded()));
    }

    /**
     * Sends the request on over a pooled connection to the admitted address and relays the answer. A WebSocket
     * handshake keeps its Upgrade and Connection headers and goes as a tunnel request: a 101 splices both sides
     * ({@link WebSocketSplice}), any other answer is relayed and the connection closed.
     */
    private void forward(HttpServerRequest request, InterceptedTarget target, List<Entry<String, String>> headers,
                         EchoSwap echo) {
        request.pause();
        boolean websocket = WebSocketSplice.requested(request);
        RequestOptions options = new RequestOptions()
                .setMethod(request.method())
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(target.address(), target.port())))
                .setHost(target.host())
                .setPort(target.port())
                .setURI(request.uri());
        Set<String> named = connectionNamed(request.headers());
        (websocket ? upgrades : upstream).request(options).onComplete(opened -> {
            if (opened.failed()) {
                refuse(request, 502, "the host did not accept the connection");
                return;
            }
            HttpClientRequest out = opened.result();
            for (Entry<String, String> header : headers) {
                String name = header.getKey().toLowerCase(Locale.ROOT);
                if (!HOP_BY_HOP.contains(name) && !named.contains(name)
                        || websocket && WebSocketSplice.HANDSHAKE.contains(name)) {
                    out.headers().add(header.getKey(), header.getValue());
                }
            }
            if (websocket) {
                out.connect().onComplete(answered -> {
                    if (answered.failed()) {
                        refuse(request, 502, "the host failed the request");
                    } else if (answered.result().statusCode() == 101) {
                        WebSocketSplice.splice(request, answered.result(), echo);
                    } else {
                        HttpConnection used = answered.result().request().connection();
                        request.connection().closeHandler(gone -> used.close());
                        relay(request, answered.result(), echo, true);
                    }
                });
                request.resume();
                return;
            }
            if ("100-continue".equalsIgnoreCase(request.getHeader("expect"))) {
                request.response().writeContinue();
            }
            boolean body = request.headers().contains("content-length") || request.headers().contains(
                    "transfer-encoding");
            Future<HttpClientResponse> sent;
            if (body) {
                sent = out.send(request);
            } else {
                sent = out.send();
                request.resume();
            }
            sent.onComplete(answered -> {
                if (answered.failed()) {
                    refuse(request, 502, "the host failed the request");
                } else {
                    relay(request, answered.result(), echo, false);
                }
            });
        });
    }

    /**
     * The host's answer back to the sandbox as it arrives, every real value in its headers and body swapped back for
     * the surrogate; when a surrogate is not as long as its value the body goes chunked, its length unknown. With
     * {@code last} the connection closes after it (the answer to a WebSocket handshake that did not switch).
     */
    private static void relay(HttpServerRequest request, HttpClientResponse answer, EchoSwap echo, boolean last) {
        HttpServerResponse response = request.response();
        response.setStatusCode(answer.statusCode());
        response.setStatusMessage(answer.statusMessage());
        Set<String> named = connectionNamed(answer.headers());
        answer.headers().forEach(header -> {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(name) && !named.contains(name)) {
                response.headers().add(header.getKey(), echo.apply(header.getValue()));
            }
        });
        boolean bodiless = request.method() == HttpMethod.HEAD || answer.statusCode() == 204
                || answer.statusCode() == 304 || answer.statusCode() / 100 == 1;
        if (!bodiless && (echo.changesLength() || !response.headers().contains("content-length"))) {
            response.headers().remove("content-length");
            response.setChunked(true);
        }
        EchoSwap.Stream body = echo.stream();
        answer.exceptionHandler(broken -> request.connection().close());
        answer.handler(data -> {
            byte[] swapped = body.feed(data.getBytes());
            if (swapped.length > 0) {
                response.write(Buffer.buffer(swapped));
            }
            if (response.writeQueueFull()) {
                answer.pause();
                response.drainHandler(drained -> answer.resume());
            }
        });
        if (last) {
            response.headers().set("connection", "close");
        }
        answer.endHandler(ended -> response.end(Buffer.buffer(body.finish())).onComplete(sent -> {
            if (last || sent.failed()) {
                request.connection().close();
            }
        }));
    }

    /** The header names a Connection header lists: hop-by-hop for that message. */
    private static Set<String> connectionNamed(MultiMap headers) {
        Set<String> named = new java.util.HashSet<>();
        for (String value : headers.getAll("connection")) {
            for (String token : value.split(",")) {
                named.add(token.trim().toLowerCase(Locale.ROOT));
            }
        }
        return named;
    }

    private static void refuse(HttpServerRequest request, int status, String why) {
        HttpServerResponse response = request.response();
        if (response.headWritten()) {
            request.connection().close();
            return;
        }
        response.setStatusCode(status)
                .putHeader("content-type", "text/plain")
                .putHeader("connection", "close")
                .end(Buffer.buffer(why + "\n"))
                .onComplete(done -> request.connection().close());
    }
}
