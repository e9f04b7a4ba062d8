package io.trimus.egress.proxy;

import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.masks.MaskSwap;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.TrustOptions;

import javax.net.ssl.X509ExtendedTrustManager;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Where a sandbox's TLS connection to a host of a masked secret ends. The proxy connection, having admitted the host
 * and checked the ClientHello names it, pipes the sandbox's TLS bytes to a loopback HTTPS server of this class, one per
 * egress CA, whose leaf certificate for the SNI name is signed by the CA placed in the sandbox. Each request is read
 * (head only), its masked secrets swapped by {@link MaskSwap}, and forwarded over a new TLS connection to the address
 * that passed the proxy's checks, verifying the real server's certificate for the host; the response streams back as
 * it arrives (SSE and chunked bodies are never buffered whole). The loopback connection is matched to its sandbox by
 * the port the proxy dialled from, registered before the first byte is sent.
 */
public final class MaskingInterceptor {
    /**
     * Not forwarded: the hop-by-hop headers, Host (set from the admitted host), and Expect, which this server answers
     * itself ({@code 100 Continue}) so the body streams on without a second handshake upstream.
     */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "te",
            "trailer", "transfer-encoding", "upgrade", "proxy-authenticate", "host", "expect");

    /** Upstream connections kept per host and address, far above what the per-sandbox limits let a few use. */
    static final int MAX_POOL_PER_HOST = 4096;

    private final Vertx vertx;
    private final LeafKeys keys;
    private final AnomalyRecorder anomalies;
    private final HttpClient upstream;
    private final int maxHeadBytes;
    private final Map<String, Future<HttpServer>> servers = new ConcurrentHashMap<>();
    private final Map<Integer, InterceptedTarget> targets = new ConcurrentHashMap<>();

    /**
     * @param trust        whom to trust for the real hosts ({@link UpstreamTrust})
     * @param maxHeadBytes the largest request head read from a sandbox
     */
    public MaskingInterceptor(Vertx vertx, LeafKeys keys, AnomalyRecorder anomalies, X509ExtendedTrustManager trust,
                              ProxyServer.Limits limits) {
        this.vertx = vertx;
        this.keys = keys;
        this.anomalies = anomalies;
        this.maxHeadBytes = limits.maxHeadBytes();
        this.upstream = vertx.createHttpClient(new HttpClientOptions()
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
                .setDecompressionSupported(false));
    }

    /** The loopback port whose HTTPS server signs with the CA {@code caFingerprint}; started on first use. */
    Future<Integer> port(String caFingerprint) {
        Future<HttpServer> server = servers.computeIfAbsent(caFingerprint, this::start);
        return server.map(HttpServer::actualPort).onFailure(failed -> servers.remove(caFingerprint, server));
    }

    /** The connection from {@code localPort} (the proxy's end of a loopback connection) carries {@code target}. */
    void expect(int localPort, InterceptedTarget target) {
        targets.put(localPort, target);
    }

    /** Forgets the connection from {@code localPort}. */
    void forget(int localPort) {
        targets.remove(localPort);
    }

    /** Stops every server and the upstream client. */
    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        servers.values().forEach(server -> closing.add(server.compose(HttpServer::close).recover(e ->
                Future.succeededFuture())));
        servers.clear();
        return Future.join(closing).<Void>mapEmpty().eventually(() -> upstream.close());
    }

    private Future<HttpServer> start(String caFingerprint) {
        return keys.of(caFingerprint).compose(keyManager -> vertx.createHttpServer(new HttpServerOptions()
                        .setSsl(true)
                        .setKeyCertOptions(KeyCertOptions.wrap(keyManager))
                        .setUseAlpn(false)
                        .setHandle100ContinueAutomatically(true)
                        .setMaxHeaderSize(maxHeadBytes)
                        .setMaxInitialLineLength(maxHeadBytes)
                        .setHost("127.0.0.1")
                        .setPort(0))
                .requestHandler(this::handle)
                .listen());
    }

    private void handle(HttpServerRequest request) {
        InterceptedTarget target = targets.get(request.remoteAddress().port());
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
        forward(request, target, swapped.headers());
    }

    private void forward(HttpServerRequest request, InterceptedTarget target, List<Entry<String, String>> headers) {
        request.pause();
        RequestOptions options = new RequestOptions()
                .setMethod(request.method())
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(target.address(), target.port())))
                .setHost(target.host())
                .setPort(target.port())
                .setURI(request.uri());
        Set<String> named = connectionNamed(request.headers());
        upstream.request(options).onComplete(opened -> {
            if (opened.failed()) {
                refuse(request, 502, "the host did not accept the connection");
                return;
            }
            HttpClientRequest out = opened.result();
            for (Entry<String, String> header : headers) {
                String name = header.getKey().toLowerCase(Locale.ROOT);
                if (!HOP_BY_HOP.contains(name) && !named.contains(name)) {
                    out.headers().add(header.getKey(), header.getValue());
                }
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
                    relay(request, answered.result());
                }
            });
        });
    }

    private static void relay(HttpServerRequest request, HttpClientResponse answer) {
        HttpServerResponse response = request.response();
        response.setStatusCode(answer.statusCode());
        response.setStatusMessage(answer.statusMessage());
        Set<String> named = connectionNamed(answer.headers());
        answer.headers().forEach(header -> {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (!HOP_BY_HOP.contains(name) && !named.contains(name)) {
                response.headers().add(header.getKey(), header.getValue());
            }
        });
        boolean bodiless = request.method() == HttpMethod.HEAD || answer.statusCode() == 204
                || answer.statusCode() == 304 || answer.statusCode() / 100 == 1;
        if (!bodiless && !response.headers().contains("content-length")) {
            response.setChunked(true);
        }
        answer.pipeTo(response).onFailure(broken -> request.connection().close());
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
