package io.trimus.egress.proxy;

import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RecordingAnomalies.Recorded;
import io.trimus.egress.anomaly.RecordingAnomalies;
import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.proxy.destination.OutsideAddresses;
import io.trimus.egress.proxy.destination.TestDestinations;
import io.trimus.egress.proxy.intercept.LeafKeys;
import io.trimus.egress.proxy.intercept.MaskingInterceptor;
import io.trimus.egress.proxy.intercept.UpstreamTrust;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.secrets.SandboxMask;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.trimus.egress.proxy.ProxySockets.readUntil;
import static io.trimus.egress.proxy.ProxySockets.send;
import static io.trimus.egress.proxy.ProxySockets.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Masked secrets through the real proxy on loopback sockets: a sandbox at 127.0.0.2 holding two masked secrets, an
 * "outside" HTTPS server (its own private CA, trusted by the proxy as TRIMUS_EGRESS_PROXY_UPSTREAM_CA_FILE would make
 * it) that echoes the credentials it received, a plain HTTP one, and a test egress CA whose leaf the sandbox's client
 * must be served for the masked host. Every rule is attacked: out-of-scope surrogates, the sandbox's own key, plain
 * HTTP, an untrusted upstream, masks not received yet.
 */
class MaskingProxyTest {
    private static final String SANDBOX_IP = "127.0.0.2";
    private static final String HTTPS_IP = "127.0.0.5";
    private static final String HTTP_IP = "127.0.0.6";
    private static final String SCOPED = "api.masked.test";
    private static final String UNSCOPED_TLS = "other.tls.test";
    private static final String PLAIN = "plain.masked.test";
    private static final String CA = "c".repeat(64);
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Sandbox SANDBOX = new Sandbox(SANDBOX_IP, COMPANY, UUID.randomUUID(), UUID.randomUUID(), "c1");
    private static final SandboxMask TOKEN = new SandboxMask("GITHUB_TOKEN", "ghp_Surrogate0123456789abcdefABCDEF0123",
            "ghp_RealValue9876543210zyxwvuZYXWVU9876", List.of(SCOPED), List.of("authorization", "x-api-key"));
    private static final SandboxMask ELSEWHERE = new SandboxMask("OTHER_KEY", "sk-Surrogate000000000000000000",
            "sk-RealValue111111111111111111", List.of("elsewhere.test"), List.of("authorization"));

    private static Vertx vertx;
    private static TestUpstreamDns dns;
    private static UpstreamResolver upstream;
    private static TestPki outsidePki;
    private static TestPki egressPki;
    private static X509KeyManager egressLeaf;
    private static HttpServer https;
    private static HttpServer http;
    private static final AtomicInteger httpsRequests = new AtomicInteger();
    private static final AtomicInteger httpRequests = new AtomicInteger();
    private static final AtomicReference<Promise<Void>> streamGate = new AtomicReference<>();
    /** What the outside hosts received: method, target and Authorization of every request. */
    private static final List<String> received = new CopyOnWriteArrayList<>();

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final MaskedSecrets masked = new MaskedSecrets();
    private final RecordingAnomalies anomalies = new RecordingAnomalies();
    private final List<ConnectionRecord> connections = new CopyOnWriteArrayList<>();
    private ProxyServer proxy;

    @BeforeAll
    static void startOutside() throws Exception {
        vertx = Vertx.vertx();
        outsidePki = TestPki.create("Outside CA");
        egressPki = TestPki.create("Test egress CA");
        egressLeaf = egressPki.leaf(SCOPED);
        https = OutsideServers.await(vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(KeyCertOptions.wrap(outsidePki.leaf(SCOPED, UNSCOPED_TLS))))
                .requestHandler(request -> echo(request, httpsRequests))
                .listen(0, HTTPS_IP));
        http = OutsideServers.await(vertx.createHttpServer()
                .requestHandler(request -> echo(request, httpRequests))
                .listen(0, HTTP_IP));
        dns = new TestUpstreamDns().a(SCOPED, HTTPS_IP).a(UNSCOPED_TLS, HTTPS_IP).a(PLAIN, HTTP_IP).start();
        upstream = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", dns.port()), Duration.ofSeconds(2),
                64);
    }

    /**
     * Echoes the credentials it got, as a host that reflects its request does (TRACE too); {@code /stream} sends one
     * chunk, then the next only once the test opens it; {@code /split} echoes the Authorization in a chunked body
     * whose chunks cut it in two; {@code /ws} becomes a WebSocket answering each message with {@code echo:} and it.
     */
    private static void echo(HttpServerRequest request, AtomicInteger counter) {
        counter.incrementAndGet();
        if (request.path().equals("/ws")) {
            // upgraded from the request handler: through a webSocketHandler, Vert.x's server did not accept every
            // valid handshake in these tests (it handed some to the request handler)
            String authorization = request.getHeader("Authorization");
            request.toWebSocket().onSuccess(socket -> {
                received.add("WS " + socket.path() + " " + authorization);
                socket.textMessageHandler(message -> socket.writeTextMessage("echo:" + message));
            }).onFailure(failed -> request.response().setStatusCode(500).end(String.valueOf(failed)));
            return;
        }
        received.add(request.method() + " " + request.uri() + " " + request.getHeader("Authorization"));
        if (request.path().equals("/split")) {
            String authorization = String.valueOf(request.getHeader("Authorization"));
            int half = authorization.length() / 2 + 3;
            request.response().setChunked(true).putHeader("X-Echo", authorization)
                    .write("echo=" + authorization.substring(0, half));
            vertx.setTimer(50, t -> request.response().end(authorization.substring(half) + "\n"));
            return;
        }
        if (request.path().equals("/stream")) {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream");
            request.response().write("data: first\n\n");
            streamGate.get().future().onComplete(open -> request.response().end("data: second\n\n"));
            return;
        }
        request.body().onSuccess(body -> request.response().end("authorization=" + request.getHeader("Authorization")
                + "\nx-api-key=" + request.getHeader("x-api-key") + "\nbody=" + body + "\n"));
    }

    @AfterAll
    static void stopOutside() {
        OutsideServers.await(upstream.close());
        dns.close();
        OutsideServers.await(https.close());
        OutsideServers.await(http.close());
        OutsideServers.await(vertx.close());
    }

    @BeforeEach
    void startProxy() {
        sandboxes.register(SANDBOX);
        allowlists.replace(COMPANY, List.of(SCOPED, UNSCOPED_TLS, PLAIN));
        masked.put(SANDBOX_IP, new RunMasks(SANDBOX.runId(), List.of(TOKEN, ELSEWHERE), CA));
        proxy = proxy(Optional.of(outsidePki.caPem.toString()));
    }

    private ProxyServer proxy(Optional<String> upstreamCaFile) {
        int tlsPort = https.actualPort();
        int httpPort = http.actualPort();
        ProxyLimits limits = new ProxyLimits(8192, 16, Duration.ofMinutes(1), Duration.ofMinutes(5),
                Duration.ofSeconds(5), Duration.ofSeconds(10));
        LeafKeys keys = fingerprint -> fingerprint.equals(CA) ? Future.succeededFuture(egressLeaf)
                : Future.failedFuture("no such CA");
        ProxyServer server = new ProxyServer(vertx,
                new ProxyPolicy(sandboxes, allowlists, company -> EgressMode.ENFORCE, () -> true,
                        Set.of(tlsPort, httpPort), Set.of(tlsPort)),
                TestDestinations.uncached(upstream, new OutsideAddresses(HTTPS_IP, HTTP_IP)), anomalies,
                connections::add, limits, 1,
                masked, new MaskingInterceptor(vertx, keys, anomalies, UpstreamTrust.of(upstreamCaFile), limits));
        OutsideServers.await(server.start("127.0.0.1", 0));
        OutsideServers.await(server.listen(ProxyWay.TRANSPARENT_TLS, "127.0.0.1", 0, tlsPort));
        return server;
    }

    @AfterEach
    void stopProxy() {
        OutsideServers.await(proxy.close());
        received.clear();
    }

    @Test
    void theScopedHostReceivesTheRealValueWhereTheSandboxSentItsSurrogate() throws Exception {
        String answer = throughMaskedTunnel("GET /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer "
                + TOKEN.surrogate() + "\r\n\r\n");

        assertThat(received).contains("GET /headers Bearer " + TOKEN.value());
        // the host echoed the value: the sandbox gets its surrogate back
        assertThat(answer).startsWith("HTTP/1.1 200").contains("authorization=Bearer " + TOKEN.surrogate() + "\n")
                .doesNotContain(TOKEN.value());
        assertThat(anomalies.all()).isEmpty();
        ConnectionRecord record = awaitRecord();
        assertThat(record.maskedSwaps()).containsExactly(Map.entry("GITHUB_TOKEN", 1));
        assertThat(record.decision()).isEqualTo("allowed");
        assertThat(record.address()).isEqualTo(HTTPS_IP);
    }

    @Test
    void theSwapWorksInsideBasicCredentialsAndOnTheSteeredPort() throws Exception {
        String basic = Base64.getEncoder().encodeToString(("x-access-token:" + TOKEN.surrogate())
                .getBytes(StandardCharsets.UTF_8));
        String answer;
        try (Socket socket = from(ProxyWay.TRANSPARENT_TLS); SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
            answer = send(tls, "GET /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Basic " + basic
                    + "\r\n\r\n");
        }

        String expected = Base64.getEncoder().encodeToString(("x-access-token:" + TOKEN.value())
                .getBytes(StandardCharsets.UTF_8));
        assertThat(received).contains("GET /headers Basic " + expected);
        assertThat(answer).startsWith("HTTP/1.1 200").contains("authorization=Basic " + basic + "\n")
                .doesNotContain(expected);
    }

    @Test
    void theSandboxsOwnCredentialsForTheScopedHostAreStripped() throws Exception {
        String answer = throughMaskedTunnel("POST /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer"
                + " attackers-own-key\r\nx-api-key: another-key\r\nContent-Length: 4\r\n\r\nbody");

        assertThat(answer).startsWith("HTTP/1.1 200").contains("authorization=null\n").contains("x-api-key=null\n")
                .contains("body=body");
    }

    @Test
    void aBodyAnnouncedWithExpectContinueIsAskedForAndForwarded() throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                write(tls, "POST /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer "
                        + TOKEN.surrogate() + "\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
                assertThat(readUntil(tls, "\r\n\r\n")).startsWith("HTTP/1.1 100 Continue");

                assertThat(send(tls, "hello")).startsWith("HTTP/1.1 200").contains("authorization=Bearer "
                        + TOKEN.surrogate() + "\n").contains("body=hello");
            }
        }
    }

    @Test
    void aWebSocketHandshakeHasItsSurrogateSwappedAndIsSplicedAfterThe101() throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                write(tls, webSocketHandshake("/ws", "Bearer " + TOKEN.surrogate()));
                assertThat(readUntil(tls, "\r\n\r\n")).startsWith("HTTP/1.1 101 ")
                        .containsIgnoringCase("sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
                // a masked text frame (mask 0): the host's echo comes back over the spliced connection
                tls.getOutputStream().write(new byte[]{(byte) 0x81, (byte) 0x85, 0, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'});
                tls.getOutputStream().flush();
                assertThat(readUntil(tls, "echo:hello")).endsWith("echo:hello");
            }
        }
        assertThat(received).contains("WS /ws Bearer " + TOKEN.value());
    }

    @Test
    void aWebSocketHandshakeCarryingAnOutOfScopeSurrogateIsRefusedAndTheConnectionClosed() throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                write(tls, webSocketHandshake("/ws", "Bearer " + ELSEWHERE.surrogate()));
                // answered, then closed: everything up to the end of the stream
                assertThat(new String(tls.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                        .startsWith("HTTP/1.1 403");
            }
        }
        assertThat(received).noneMatch(line -> line.startsWith("WS "));
        assertRecorded(SCOPED, "TLS", "masked_secret_out_of_scope");
    }

    /** RFC 6455's sample handshake (its key answers {@code s3pPLMBiTxaQ9kYGzzhZRbK+xOo=}). */
    private static String webSocketHandshake(String path, String authorization) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: " + authorization
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n";
    }

    @Test
    void aSurrogateSentToTheScopedHostOfAnotherSecretIsRefusedWithItsAnomaly() throws Exception {
        int before = httpsRequests.get();

        String answer = throughMaskedTunnel("GET /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\nX-Key: "
                + ELSEWHERE.surrogate() + "\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 403").doesNotContain(ELSEWHERE.value());
        assertThat(httpsRequests.get()).isEqualTo(before);
        assertRecorded(SCOPED, "TLS", "masked_secret_out_of_scope");
    }

    @Test
    void aSurrogateSentInPlainHttpToAnUnscopedHostIsRefusedWithItsAnomaly() throws Exception {
        int before = httpRequests.get();
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            String answer = send(socket, "GET http://" + PLAIN + ":" + http.actualPort() + "/ HTTP/1.1\r\n"
                    + "Authorization: Bearer " + TOKEN.surrogate() + "\r\n\r\n");

            assertThat(answer).startsWith("HTTP/1.1 403");
        }
        assertThat(httpRequests.get()).isEqualTo(before);
        assertRecorded(PLAIN, "HTTP", "masked_secret_out_of_scope");
    }

    @Test
    void plainHttpToAScopedHostIsRefusedSinceSwapsNeedTls() throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, "GET http://" + SCOPED + ":" + http.actualPort() + "/ HTTP/1.1\r\n\r\n"))
                    .startsWith("HTTP/1.1 403");
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void otherHostsStayPlainTunnelsToTheirOwnCertificate() throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(UNSCOPED_TLS))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, UNSCOPED_TLS, outsidePki.trust())) {
                X509Certificate served = (X509Certificate) tls.getSession().getPeerCertificates()[0];
                assertThat(served.getIssuerX500Principal().getName()).isEqualTo("CN=Outside CA");
                assertThat(send(tls, "GET /headers HTTP/1.1\r\nHost: " + UNSCOPED_TLS + "\r\nAuthorization: Bearer"
                        + " mine\r\n\r\n")).contains("authorization=Bearer mine\n");
            }
        }
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(UNSCOPED_TLS))).startsWith("HTTP/1.1 200 ");
            assertThatThrownBy(() -> tls(socket, UNSCOPED_TLS, egressPki.trust())).isInstanceOf(SSLException.class);
        }
    }

    @Test
    void aStreamedResponseArrivesChunkByChunk() throws Exception {
        streamGate.set(Promise.promise());
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                write(tls, "GET /stream HTTP/1.1\r\nHost: " + SCOPED + "\r\n\r\n");

                String first = readUntil(tls, "data: first");
                assertThat(first).startsWith("HTTP/1.1 200").contains("text/event-stream")
                        .doesNotContain("second");
                streamGate.get().complete();
                assertThat(readUntil(tls, "data: second")).contains("data: second");
            }
        }
    }

    @Test
    void longStreamsToTheScopedHostDoNotQueueOtherRequestsBehindThem() throws Exception {
        streamGate.set(Promise.promise());
        List<Socket> streams = new java.util.ArrayList<>();
        try {
            // more open streams than an HTTP client's default pool (5) holds connections to one host
            for (int i = 0; i < 8; i++) {
                Socket socket = from(ProxyWay.EXPLICIT);
                streams.add(socket);
                assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
                SSLSocket tls = tls(socket, SCOPED, egressPki.trust());
                streams.add(tls);
                write(tls, "GET /stream HTTP/1.1\r\nHost: " + SCOPED + "\r\n\r\n");
                assertThat(readUntil(tls, "data: first")).contains("data: first");
            }

            assertThat(throughMaskedTunnel("GET /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 200");
        } finally {
            streamGate.get().complete();
            for (Socket socket : streams) {
                socket.close();
            }
        }
    }

    @Test
    void aSandboxWhoseMasksHaveNotArrivedIsRefusedUntilTheyDo() throws Exception {
        masked.drop(SANDBOX_IP, SANDBOX.runId());
        masked.expect(SANDBOX_IP, SANDBOX.runId());
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 503 ");
        }
        masked.put(SANDBOX_IP, new RunMasks(SANDBOX.runId(), List.of(TOKEN), CA));
        assertThat(throughMaskedTunnel("GET /after HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer "
                + TOKEN.surrogate() + "\r\n\r\n")).startsWith("HTTP/1.1 200");
        assertThat(received).contains("GET /after Bearer " + TOKEN.value());
    }

    @Test
    void anUpstreamWhoseCertificateIsNotTrustedGetsNothing() throws Exception {
        OutsideServers.await(proxy.close());
        proxy = proxy(Optional.empty());
        int before = httpsRequests.get();

        String answer = throughMaskedTunnel("GET /headers HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer "
                + TOKEN.surrogate() + "\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 502");
        assertThat(httpsRequests.get()).isEqualTo(before);
    }

    @Test
    void traceTrackAndConnectAreRefusedSoNoEchoCarriesTheValueBack() throws Exception {
        for (String method : List.of("TRACE / HTTP/1.1", "TRACK / HTTP/1.1", "CONNECT " + UNSCOPED_TLS + ":443 HTTP/1.1")) {
            String answer = throughMaskedTunnel(method + "\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer "
                    + TOKEN.surrogate() + "\r\n\r\n");

            assertThat(answer).as(method).startsWith("HTTP/1.1 405").doesNotContain(TOKEN.value());
        }
        assertThat(received).isEmpty();
        assertThat(anomalies.all()).extracting(Recorded::reason).containsOnly("masked_request_refused");
    }

    @Test
    void anAbsoluteFormTargetIsForwardedOnlyForTheConnectionsOwnAuthorityRewrittenToOriginForm() throws Exception {
        String elsewhere = throughMaskedTunnel("GET https://" + UNSCOPED_TLS + "/steal HTTP/1.1\r\nHost: " + SCOPED
                + "\r\nAuthorization: Bearer " + TOKEN.surrogate() + "\r\n\r\n");
        String plain = throughMaskedTunnel("GET http://" + SCOPED + ":" + https.actualPort() + "/plain HTTP/1.1\r\n"
                + "Host: " + SCOPED + "\r\nAuthorization: Bearer " + TOKEN.surrogate() + "\r\n\r\n");
        String own = throughMaskedTunnel("GET https://" + SCOPED + ":" + https.actualPort() + "/own?q=1 HTTP/1.1\r\n"
                + "Host: " + SCOPED + "\r\nAuthorization: Bearer " + TOKEN.surrogate() + "\r\n\r\n");

        assertThat(elsewhere).startsWith("HTTP/1.1 403");
        assertThat(plain).startsWith("HTTP/1.1 403");
        assertThat(own).startsWith("HTTP/1.1 200");
        assertThat(received).containsExactly("GET /own?q=1 Bearer " + TOKEN.value());
        assertThat(anomalies.all()).extracting(Recorded::reason).containsExactly("proxy_host_mismatch",
                "proxy_host_mismatch");
    }

    @Test
    void aHostOtherThanTheServerNameIsRefused() throws Exception {
        String answer = throughMaskedTunnel("GET /headers HTTP/1.1\r\nHost: " + UNSCOPED_TLS + "\r\nAuthorization:"
                + " Bearer " + TOKEN.surrogate() + "\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 403");
        assertThat(received).isEmpty();
        assertRecorded(SCOPED, "TLS", "proxy_host_mismatch");
    }

    @Test
    void aRequestInsideTheTerminatedTlsThatCouldBeReadTwoWaysIsRefused() throws Exception {
        List<String> malformed = List.of(
                "POST /a HTTP/1.1\r\nHost: " + SCOPED + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n"
                        + "GET /hidden HTTP/1.1\r\nHost: " + SCOPED + "\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: " + SCOPED + "\r\nContent-Length: 4\r\nTransfer-Encoding: chunked"
                        + "\r\n\r\n0\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: " + SCOPED + "\r\nX-A: 1\r\n folded\r\n\r\n",
                "GET /a HTTP/1.1\nHost: " + SCOPED + "\r\n\r\n");
        for (String request : malformed) {
            assertThat(throughMaskedTunnel(request)).as(request).startsWith("HTTP/1.1 400");
        }
        assertThat(received).noneMatch(r -> r.contains("/hidden")).noneMatch(r -> r.startsWith("GET /a"));
        assertThat(anomalies.all()).extracting(Recorded::reason).containsOnly("proxy_malformed_request");
    }

    @Test
    void aValueTheHostEchoesInHeadersOrInAChunkedBodyCutAcrossReadsComesBackAsTheSurrogate() throws Exception {
        String answer;
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                write(tls, "GET /split HTTP/1.1\r\nHost: " + SCOPED + "\r\nAuthorization: Bearer "
                        + TOKEN.surrogate() + "\r\n\r\n");
                answer = readUntil(tls, "0\r\n\r\n");
            }
        }

        assertThat(received).containsExactly("GET /split Bearer " + TOKEN.value());
        assertThat(answer).startsWith("HTTP/1.1 200").doesNotContain(TOKEN.value())
                .contains("X-Echo: Bearer " + TOKEN.surrogate());
        assertThat(dechunk(answer)).contains("echo=Bearer " + TOKEN.surrogate() + "\n");
    }

    @Test
    void eachRequestOnAKeptAliveInterceptedConnectionIsAdmittedAgain() throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                assertThat(send(tls, "GET /first HTTP/1.1\r\nHost: " + SCOPED + "\r\n\r\n"))
                        .startsWith("HTTP/1.1 200");
                allowlists.replace(COMPANY, List.of(UNSCOPED_TLS, PLAIN));

                assertThat(send(tls, "GET /second HTTP/1.1\r\nHost: " + SCOPED + "\r\n\r\n"))
                        .startsWith("HTTP/1.1 403");
            }
        }
        assertThat(received).containsExactly("GET /first null");
        assertRecorded(SCOPED, "TLS", "proxy_not_allowlisted");
    }

    /** The body of a chunked response read raw. */
    private static String dechunk(String response) {
        String rest = response.substring(response.indexOf("\r\n\r\n") + 4);
        StringBuilder body = new StringBuilder();
        while (true) {
            int lineEnd = rest.indexOf("\r\n");
            int size = Integer.parseInt(rest.substring(0, lineEnd), 16);
            if (size == 0) {
                return body.toString();
            }
            body.append(rest, lineEnd + 2, lineEnd + 2 + size);
            rest = rest.substring(lineEnd + 2 + size + 2);
        }
    }

    private String throughMaskedTunnel(String request) throws Exception {
        try (Socket socket = from(ProxyWay.EXPLICIT)) {
            assertThat(send(socket, connect(SCOPED))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, SCOPED, egressPki.trust())) {
                X509Certificate served = (X509Certificate) tls.getSession().getPeerCertificates()[0];
                assertThat(served.getIssuerX500Principal().getName()).isEqualTo("CN=Test egress CA");
                return send(tls, request);
            }
        }
    }

    private ConnectionRecord awaitRecord() {
        await().atMost(Duration.ofSeconds(5)).until(() -> connections.size() == 1);
        return connections.get(0);
    }

    private void assertRecorded(String name, String type, String reason) {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(anomalies.all())
                .containsExactly(new Recorded(SANDBOX, SANDBOX_IP, name, type, reason)));
    }

    private String connect(String host) {
        return "CONNECT " + host + ":" + https.actualPort() + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
    }

    private Socket from(ProxyWay way) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(SANDBOX_IP, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", proxy.port(way).orElseThrow()), 5000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static SSLSocket tls(Socket tunnel, String serverName, X509TrustManager trust) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {trust}, null);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(tunnel, serverName, 443, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }




}
