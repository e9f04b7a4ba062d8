package io.trimus.egress.proxy;

import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RecordingAnomalies.Recorded;
import io.trimus.egress.anomaly.RecordingAnomalies;
import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.proxy.admission.ClientHellos;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.proxy.destination.OutsideAddresses;
import io.trimus.egress.proxy.destination.TestDestinations;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Vertx;
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
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.trimus.egress.proxy.ProxySockets.readResponse;
import static io.trimus.egress.proxy.ProxySockets.send;
import static io.trimus.egress.proxy.ProxySockets.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The proxy end to end on real loopback sockets, its explicit port and its transparent TLS and HTTP listeners: a sandbox at 127.0.0.2 (the client binds that source),
 * the stand-in upstream DNS mapping test names to loopback "outside" servers (HTTPS at 127.0.0.5, plain HTTP at
 * 127.0.0.6), and an address policy that lets the proxy dial exactly those two, as a deployment's allow-private
 * setting would. Every check is attacked and must refuse with its anomaly.
 */
class LoopbackProxyTest {
    private static final String SANDBOX_IP = "127.0.0.2";
    private static final String STRANGER_IP = "127.0.0.9";
    private static final String HTTPS_IP = "127.0.0.5";
    private static final String HTTP_IP = "127.0.0.6";
    /** An address the test policy refuses, where a listener counts whoever dials it. */
    private static final String FORBIDDEN_IP = "127.0.0.7";
    private static final String TLS_HOST = "api.example.test";
    private static final String PLAIN_HOST = "plain.example.test";
    private static final String OTHER_PLAIN_HOST = "other.example.test";
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Sandbox SANDBOX = new Sandbox(SANDBOX_IP, COMPANY, UUID.randomUUID(), UUID.randomUUID(), "c1");
    private static final int PER_SANDBOX = 3;

    private static Vertx vertx;
    private static TestUpstreamDns dns;
    private static OutsideServers outside;
    private static UpstreamResolver upstream;

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final RecordingAnomalies anomalies = new RecordingAnomalies();
    private final List<ConnectionRecord> connections = new CopyOnWriteArrayList<>();
    private final Map<UUID, EgressMode> modes = new ConcurrentHashMap<>();
    private final AtomicBoolean current = new AtomicBoolean(true);
    private ProxyServer proxy;

    @BeforeAll
    static void startOutside() throws Exception {
        vertx = Vertx.vertx();
        outside = new OutsideServers(vertx, HTTPS_IP, TLS_HOST, HTTP_IP);
        dns = new TestUpstreamDns()
                .a(TLS_HOST, HTTPS_IP)
                .a(PLAIN_HOST, HTTP_IP)
                .a(OTHER_PLAIN_HOST, HTTP_IP)
                .a("unlisted.example.test", HTTPS_IP)
                .a("loopback.example.test", "127.0.0.1")
                .a("mixed.example.test", FORBIDDEN_IP)
                .a("mixed.example.test", HTTP_IP)
                .a("metadata.example.test", "169.254.169.254")
                .start();
        upstream = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", dns.port()), Duration.ofSeconds(2),
                64);
    }

    @AfterAll
    static void stopOutside() {
        OutsideServers.await(upstream.close());
        dns.close();
        outside.close();
        OutsideServers.await(vertx.close());
    }

    @BeforeEach
    void startProxy() {
        sandboxes.register(SANDBOX);
        allowlists.replace(COMPANY, List.of(TLS_HOST, PLAIN_HOST, OTHER_PLAIN_HOST, "loopback.example.test",
                "metadata.example.test", "nowhere.example.test", "mixed.example.test", HTTPS_IP));
        proxy = proxy(Duration.ofMinutes(1), Duration.ofMinutes(5));
    }

    private ProxyServer proxy(Duration idleTimeout, Duration totalTimeout) {
        return proxy(idleTimeout, totalTimeout, Duration.ofSeconds(10));
    }

    private ProxyServer proxy(Duration idleTimeout, Duration totalTimeout, Duration headTimeout) {
        int tlsPort = outside.https.actualPort();
        int httpPort = outside.http.actualPort();
        ProxyServer server = PlainProxies.server(vertx,
                new ProxyPolicy(sandboxes, allowlists, company -> modes.getOrDefault(company, EgressMode.ENFORCE),
                        current::get, Set.of(tlsPort, httpPort), Set.of(tlsPort)),
                TestDestinations.uncached(upstream, new OutsideAddresses(HTTPS_IP, HTTP_IP)), anomalies,
                connections::add,
                new ProxyLimits(8192, PER_SANDBOX, idleTimeout, totalTimeout, Duration.ofSeconds(5),
                        headTimeout));
        OutsideServers.await(server.start("127.0.0.1", 0));
        // the steered ports go to the outside servers' ports, as 443 and 80 go to 443 and 80 in production
        OutsideServers.await(server.listen(ProxyWay.TRANSPARENT_TLS, "127.0.0.1", 0, tlsPort));
        OutsideServers.await(server.listen(ProxyWay.TRANSPARENT_HTTP, "127.0.0.1", 0, httpPort));
        return server;
    }

    private void restartProxy(Duration idleTimeout, Duration totalTimeout) {
        OutsideServers.await(proxy.close());
        proxy = proxy(idleTimeout, totalTimeout);
    }

    @AfterEach
    void stopProxy() {
        OutsideServers.await(proxy.close());
        dns.clearQueries();
    }

    @Test
    void aSteeredTlsConnectionGoesToTheHostItsClientHelloNames() throws Exception {
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_TLS); SSLSocket tls = tls(socket, TLS_HOST)) {
            String answer = send(tls, "POST /echo HTTP/1.1\r\nHost: " + TLS_HOST + "\r\nContent-Length: 2\r\n\r\nhi");

            assertThat(answer).startsWith("HTTP/1.1 200").endsWith("host=" + TLS_HOST + " path=/echo body=hi");
        }
        assertThat(anomalies.all()).isEmpty();
        ConnectionRecord record = awaitRecord();
        assertThat(record.way()).isEqualTo("transparent");
        assertThat(record.host()).isEqualTo(TLS_HOST);
        assertThat(record.address()).isEqualTo(HTTPS_IP);
        assertThat(record.decision()).isEqualTo("allowed");
        assertThat(record.enforced()).isTrue();
        assertThat(record.bytesOut()).isGreaterThan(100);
        assertThat(record.bytesIn()).isGreaterThan(100);
        assertThat(record.sandbox()).isEqualTo(SANDBOX);
    }

    @Test
    void aSteeredTlsConnectionNamingAnUnlistedHostIsClosedUnanswered() throws Exception {
        int before = outside.httpsRequests.get();
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_TLS)) {
            assertThatThrownBy(() -> tls(socket, "unlisted.example.test")).isInstanceOfAny(SSLException.class,
                    SocketException.class);
        }
        assertRecorded(SANDBOX, SANDBOX_IP, "unlisted.example.test", "TLS", "proxy_not_allowlisted");
        assertThat(dns.namesSeen()).doesNotContain("unlisted.example.test");
        assertThat(outside.httpsRequests.get()).isEqualTo(before);
        assertThat(awaitRecord().decision()).isEqualTo("refused");
    }

    @Test
    void plainBytesOnTheSteeredTlsPortAreRefused() throws Exception {
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_TLS)) {
            write(socket, "GET / HTTP/1.1\r\nHost: " + TLS_HOST + "\r\n\r\n");

            assertThat(readsEndOfStream(socket)).isTrue();
        }
        assertRecorded(SANDBOX, SANDBOX_IP, "", "TLS", "proxy_host_mismatch");
    }

    @Test
    void aSteeredTlsConnectionFromNoSandboxIsRefused() throws Exception {
        try (Socket socket = from(STRANGER_IP, ProxyWay.TRANSPARENT_TLS)) {
            assertThatThrownBy(() -> tls(socket, TLS_HOST)).isInstanceOfAny(SSLException.class,
                    SocketException.class);
        }
        assertRecorded(null, STRANGER_IP, TLS_HOST, "TLS", "unattributed_source");
        assertThat(connections).isEmpty();
    }

    @Test
    void steeredPlainHttpGoesToItsHostAndKeepsAliveForThatHostOnly() throws Exception {
        int before = outside.httpRequests.get();
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_HTTP)) {
            String first = send(socket, "GET /a HTTP/1.1\r\nHost: " + PLAIN_HOST + ":" + httpPort() + "\r\n\r\n");
            String second = send(socket, "GET /b HTTP/1.1\r\nHost: " + PLAIN_HOST + ":" + httpPort() + "\r\n\r\n");
            String third = send(socket, "GET /c HTTP/1.1\r\nHost: " + OTHER_PLAIN_HOST + ":" + httpPort()
                    + "\r\n\r\n");

            assertThat(first).startsWith("HTTP/1.1 200").endsWith("path=/a body=");
            assertThat(second).startsWith("HTTP/1.1 200").endsWith("path=/b body=");
            assertThat(third).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, PLAIN_HOST, "HTTP", "proxy_host_mismatch");
        assertThat(outside.httpRequests.get()).isEqualTo(before + 2);
    }

    @Test
    void steeredPlainHttpWithoutAHostOrForAnotherPortIsABadRequest() throws Exception {
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_HTTP)) {
            assertThat(send(socket, "GET / HTTP/1.0\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        }
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_HTTP)) {
            assertThat(send(socket, "GET / HTTP/1.1\r\nHost: " + PLAIN_HOST + ":1\r\n\r\n"))
                    .startsWith("HTTP/1.1 400 ");
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void inReportModeAnUnlistedHostGoesThroughAndIsRecordedAsNotEnforced() throws Exception {
        modes.put(COMPANY, EgressMode.REPORT);
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect("unlisted.example.test", httpsPort()))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, "unlisted.example.test")) {
                assertThat(send(tls, "GET /r HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 200");
            }
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(anomalies.all()).containsExactly(
                new Recorded(SANDBOX, SANDBOX_IP, "unlisted.example.test", "CONNECT", "proxy_not_allowlisted",
                        false)));
        ConnectionRecord record = awaitRecord();
        assertThat(record.decision()).isEqualTo("allowed");
        assertThat(record.enforced()).isFalse();
    }

    @Test
    void aReplicaThatCannotConfirmItsPolicyRefusesEveryHostWith503AndDialsNothing() throws Exception {
        modes.put(COMPANY, EgressMode.REPORT);
        current.set(false);
        int before = outside.httpsRequests.get();
        for (String host : List.of(TLS_HOST, "unlisted.example.test")) {
            try (Socket socket = fromSandbox()) {
                assertThat(send(socket, connect(host, httpsPort()))).as(host).startsWith("HTTP/1.1 503 ")
                        .contains("egress policy");
            }
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> connections.size() == 2);
        assertThat(connections).extracting(ConnectionRecord::decision).containsOnly("refused");
        assertThat(outside.httpsRequests.get()).isEqualTo(before);
        assertThat(dns.namesSeen()).isEmpty();
        assertThat(anomalies.all()).as("nothing was denied by policy").isEmpty();

        current.set(true);
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void reportModeStillRefusesWhatTheAddressClassesAndPortsForbid() throws Exception {
        modes.put(COMPANY, EgressMode.REPORT);
        allowlists.replace(COMPANY, List.of(TLS_HOST));
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect("metadata.example.test", httpsPort()))).startsWith("HTTP/1.1 403 ");
        }
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, 8443))).startsWith("HTTP/1.1 403 ");
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(anomalies.all())
                .extracting(Recorded::reason, Recorded::enforced).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("proxy_not_allowlisted", false),
                        org.assertj.core.groups.Tuple.tuple("proxy_address_denied", true),
                        org.assertj.core.groups.Tuple.tuple("proxy_port_denied", true)));
    }

    @Test
    void theAdapterServicesProbeIsAnsweredFromAnySourceWithoutAnAnomaly() throws Exception {
        try (Socket socket = from(STRANGER_IP)) {
            String answer = send(socket, "GET " + io.trimus.events.ProxyCheck.PATH + " HTTP/1.1\r\nHost: x\r\n\r\n");

            assertThat(answer).startsWith("HTTP/1.1 204 ").contains(io.trimus.events.ProxyCheck.HEADER + ": ok");
            assertThat(readsEndOfStream(socket)).isTrue();
        }
        assertThat(anomalies.all()).isEmpty();
        assertThat(connections).isEmpty();
    }

    @Test
    void anExplicitConnectionIsRecordedWithItsBytes() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "POST http://" + PLAIN_HOST + ":" + httpPort() + "/u HTTP/1.1\r\n"
                    + "Content-Length: 1000\r\n\r\n" + "u".repeat(1000))).startsWith("HTTP/1.1 200 ");
        }
        ConnectionRecord record = awaitRecord();
        assertThat(record.way()).isEqualTo("explicit");
        assertThat(record.host()).isEqualTo(PLAIN_HOST);
        assertThat(record.port()).isEqualTo(httpPort());
        assertThat(record.bytesOut()).isGreaterThan(1000);
        assertThat(record.bytesIn()).isGreaterThan(1000);
        assertThat(record.reason()).isEqualTo("-");
    }

    @Test
    void aPortAnEntryNamesIsTunnelledAsIsEvenWhenTheServerSpeaksFirst() throws Exception {
        try (java.net.ServerSocket banner = new java.net.ServerSocket(0, 50, InetAddress.getByName(HTTPS_IP))) {
            Thread server = new Thread(() -> {
                try (Socket accepted = banner.accept()) {
                    accepted.getOutputStream().write("SSH-2.0-outside\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    accepted.getOutputStream().flush();
                    accepted.getInputStream().read();
                } catch (IOException ignored) {
                    // the test reads what it needs before closing
                }
            });
            server.start();
            allowlists.replace(COMPANY, List.of(TLS_HOST + ":" + banner.getLocalPort()));
            try (Socket socket = fromSandbox()) {
                assertThat(send(socket, connect(TLS_HOST, banner.getLocalPort()))).startsWith("HTTP/1.1 200 ");
                byte[] first = socket.getInputStream().readNBytes(17);

                assertThat(new String(first, StandardCharsets.ISO_8859_1)).isEqualTo("SSH-2.0-outside\r\n");
            }
            server.join(5000);
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void anEntryNamingAPortOpensThatPortOnlyAndAnUnnamedNonTlsTunnelIsRefused() throws Exception {
        allowlists.replace(COMPANY, List.of(PLAIN_HOST + ":9", TLS_HOST));
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\n\r\n"))
                    .startsWith("HTTP/1.1 403 ");
        }
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, 9))).startsWith("HTTP/1.1 403 ");
        }
        assertThat(anomalies.all()).extracting(Recorded::qname, Recorded::reason).containsExactly(
                org.assertj.core.groups.Tuple.tuple(PLAIN_HOST, "proxy_port_denied"),
                org.assertj.core.groups.Tuple.tuple(TLS_HOST, "proxy_port_denied"));
    }

    private ConnectionRecord awaitRecord() {
        await().atMost(Duration.ofSeconds(5)).until(() -> connections.size() == 1);
        return connections.get(0);
    }

    @Test
    void connectToAnAllowListedHostCarriesTlsWithItsSniBothWays() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, TLS_HOST)) {
                String answer = send(tls, "POST /echo HTTP/1.1\r\nHost: " + TLS_HOST + "\r\nContent-Length: 5\r\n\r\nhello");

                assertThat(answer).startsWith("HTTP/1.1 200").endsWith("host=" + TLS_HOST + " path=/echo body=hello");
            }
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void megabytesCrossTheTunnelBothWays() throws Exception {
        String big = "x".repeat(4 * 1024 * 1024);
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
            try (SSLSocket tls = tls(socket, TLS_HOST)) {
                String answer = send(tls, "POST /big HTTP/1.1\r\nHost: " + TLS_HOST + "\r\nContent-Length: "
                        + big.length() + "\r\n\r\n" + big);

                assertThat(answer).startsWith("HTTP/1.1 200").endsWith(" body=" + big);
            }
        }
    }

    @Test
    void aConnectionIdleForTheIdleTimeoutIsClosed() throws Exception {
        restartProxy(Duration.ofMillis(500), Duration.ofMinutes(5));
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\n\r\n"))
                    .startsWith("HTTP/1.1 200 ");
            long start = System.nanoTime();

            assertThat(readsEndOfStream(socket)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(300),
                    Duration.ofSeconds(5));
        }
    }

    @Test
    void aConnectionThatTricklesItsHeadIsClosedAtTheHeadTimeout() throws Exception {
        OutsideServers.await(proxy.close());
        proxy = proxy(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofSeconds(1));
        for (ProxyWay way : List.of(ProxyWay.EXPLICIT, ProxyWay.TRANSPARENT_TLS)) {
            // a request line, or the start of a TLS record announcing a 512-byte handshake: neither ever complete
            byte[] trickle = way == ProxyWay.EXPLICIT ? "GET http://x/".repeat(10).getBytes(StandardCharsets.ISO_8859_1)
                    : new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03, 1, 2, 3, 4,
                    5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
            long start = System.nanoTime();
            int sent = 0;
            try (Socket socket = from(SANDBOX_IP, way)) {
                boolean closed = false;
                while (!closed && System.nanoTime() - start < Duration.ofSeconds(10).toNanos()) {
                    // a byte, then up to 200 ms waiting for the proxy to close: never idle, never done
                    try {
                        socket.getOutputStream().write(trickle[sent++ % trickle.length]);
                        socket.setSoTimeout(200);
                        closed = socket.getInputStream().read() < 0;
                    } catch (java.net.SocketTimeoutException stillOpen) {
                        closed = false;
                    } catch (SocketException reset) {
                        closed = true;
                    } finally {
                        if (!socket.isClosed()) {
                            socket.setSoTimeout(10_000);
                        }
                    }
                }
                assertThat(closed).as(way.name()).isTrue();
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as(way.name())
                    .isBetween(Duration.ofMillis(900), Duration.ofSeconds(5));
        }
    }

    @Test
    void aBusyConnectionIsClosedAtTheTotalTimeout() throws Exception {
        restartProxy(Duration.ofMinutes(1), Duration.ofSeconds(1));
        long start = System.nanoTime();
        try (Socket socket = fromSandbox()) {
            boolean closed = false;
            while (!closed && System.nanoTime() - start < Duration.ofSeconds(10).toNanos()) {
                // one request after another: never idle
                try {
                    closed = !send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\n\r\n")
                            .startsWith("HTTP/1.1 200 ");
                } catch (SocketException reset) {
                    closed = true;
                }
            }
            assertThat(closed).isTrue();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(900),
                Duration.ofSeconds(5));
    }

    @Test
    void absoluteFormHttpIsForwardedInOriginFormAndKeepsAliveForTheSameHost() throws Exception {
        try (Socket socket = fromSandbox()) {
            String first = send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/a?x=1 HTTP/1.1\r\nHost: "
                    + PLAIN_HOST + ":" + httpPort() + "\r\nProxy-Connection: keep-alive\r\n\r\n");
            String second = send(socket, "POST http://" + PLAIN_HOST + ":" + httpPort() + "/b HTTP/1.1\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");

            assertThat(first).startsWith("HTTP/1.1 200").endsWith("path=/a?x=1 body=");
            assertThat(second).startsWith("HTTP/1.1 200").endsWith("path=/b body=abc");
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void aSourceNoSandboxIsRegisteredAtIsRefused() throws Exception {
        try (Socket socket = from(STRANGER_IP)) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(null, STRANGER_IP, TLS_HOST, "CONNECT", "unattributed_source");
    }

    @Test
    void aHostNotOnTheAllowlistIsRefusedAndNeverResolved() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect("unlisted.example.test", httpsPort()))).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, "unlisted.example.test", "CONNECT", "proxy_not_allowlisted");
        assertThat(dns.namesSeen()).doesNotContain("unlisted.example.test");
    }

    @Test
    void anIpLiteralIsNeverAllowListedEvenWhenTheListNamesIt() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(HTTPS_IP, httpsPort()))).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, HTTPS_IP, "CONNECT", "proxy_not_allowlisted");
    }

    @Test
    void aPortNotServedIsRefused() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, 8443))).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, TLS_HOST, "CONNECT", "proxy_port_denied");
        assertThat(dns.namesSeen()).doesNotContain(TLS_HOST);
    }

    @Test
    void aConnectTunnelToAPortWhoseTlsIsNotCheckedIsRefused() throws Exception {
        // a raw tunnel to port 80 would carry requests for any Host unchecked: plain HTTP goes as absolute-form
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(PLAIN_HOST, httpPort()))).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, PLAIN_HOST, "CONNECT", "proxy_port_denied");
    }

    @Test
    void anAllowListedNameThatResolvesToLoopbackOrTheMetadataAddressIsRefused() throws Exception {
        for (String name : List.of("loopback.example.test", "metadata.example.test")) {
            try (Socket socket = fromSandbox()) {
                assertThat(send(socket, connect(name, httpsPort()))).startsWith("HTTP/1.1 403 ");
            }
        }
        assertThat(anomalies.all()).extracting(Recorded::qname, Recorded::reason).containsExactly(
                org.assertj.core.groups.Tuple.tuple("loopback.example.test", "proxy_address_denied"),
                org.assertj.core.groups.Tuple.tuple("metadata.example.test", "proxy_address_denied"));
    }

    @Test
    void onlyAnAddressThatPassedIsDialled() throws Exception {
        // the refused address comes first in the answer and has a listener on the same port
        try (java.net.ServerSocket forbidden = new java.net.ServerSocket(httpPort(), 50,
                InetAddress.getByName(FORBIDDEN_IP))) {
            forbidden.setSoTimeout(500);
            try (Socket socket = fromSandbox()) {
                String answer = send(socket, "GET http://mixed.example.test:" + httpPort() + "/m HTTP/1.1\r\n\r\n");

                assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("path=/m body=");
            }
            assertThatThrownBy(forbidden::accept).isInstanceOf(java.net.SocketTimeoutException.class);
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void aNameThatDoesNotResolveGetsBadGateway() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect("nowhere.example.test", httpsPort()))).startsWith("HTTP/1.1 502 ");
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void aClientHelloNamingAnotherHostThanTheConnectIsRefused() throws Exception {
        int before = outside.httpsRequests.get();
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");

            assertThatThrownBy(() -> tls(socket, "fronted.example.test")).isInstanceOfAny(SSLException.class,
                    SocketException.class);
        }
        assertRecorded(SANDBOX, SANDBOX_IP, TLS_HOST, "CONNECT", "proxy_host_mismatch");
        assertThat(outside.httpsRequests.get()).isEqualTo(before);
    }

    @Test
    void plainBytesThroughATlsPortTunnelAreRefused() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
            write(socket, "GET / HTTP/1.1\r\nHost: " + TLS_HOST + "\r\n\r\n");

            assertThat(readsEndOfStream(socket)).isTrue();
        }
        assertRecorded(SANDBOX, SANDBOX_IP, TLS_HOST, "CONNECT", "proxy_host_mismatch");
    }

    @Test
    void aKeptAliveConnectionRefusesARequestForAnotherHost() throws Exception {
        int before = outside.httpRequests.get();
        try (Socket socket = fromSandbox()) {
            String first = send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\n\r\n");
            String second = send(socket, "GET http://" + OTHER_PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\n\r\n");

            assertThat(first).startsWith("HTTP/1.1 200 ");
            assertThat(second).startsWith("HTTP/1.1 403 ");
            assertThat(readsEndOfStream(socket)).isTrue();
        }
        assertRecorded(SANDBOX, SANDBOX_IP, PLAIN_HOST, "HTTP", "proxy_host_mismatch");
        assertThat(outside.httpRequests.get()).isEqualTo(before + 1);
    }

    @Test
    void aHostHeaderOtherThanTheRequestTargetIsRefused() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\nHost: "
                    + OTHER_PLAIN_HOST + ":" + httpPort() + "\r\n\r\n")).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, PLAIN_HOST, "HTTP", "proxy_host_mismatch");
    }

    @Test
    void aSandboxHoldsAtMostItsShareOfConnections() throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < PER_SANDBOX; i++) {
                Socket socket = fromSandbox();
                open.add(socket);
                assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
            }
            try (Socket over = fromSandbox()) {
                assertThat(readResponse(over)).startsWith("HTTP/1.1 429 ");
            }
            try (Socket stranger = from(STRANGER_IP)) {
                // another source is not held to this sandbox's share (it is refused for its own reason)
                assertThat(send(stranger, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 403 ");
            }
            open.remove(0).close();
            await().atMost(Duration.ofSeconds(5)).until(() -> proxy.openFrom(SANDBOX_IP) < PER_SANDBOX);
            try (Socket again = fromSandbox()) {
                assertThat(send(again, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
            }
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    @Test
    void aMalformedOrOversizedHeadIsRefusedAndClosed() throws Exception {
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "GET /origin-form HTTP/1.1\r\nHost: " + PLAIN_HOST + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 400 ");
            assertThat(readsEndOfStream(socket)).isTrue();
        }
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "GET http://" + PLAIN_HOST + "/ HTTP/1.1\r\nX-Padding: " + "a".repeat(9000)
                    + "\r\n\r\n")).startsWith("HTTP/1.1 431 ");
        }
        assertThat(anomalies.all()).isEmpty();
    }

    @Test
    void aHeadThatCouldBeReadTwoWaysIsRefusedWithItsAnomaly() throws Exception {
        int before = outside.httpRequests.get();
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/ HTTP/1.1\r\nHost: " + PLAIN_HOST
                    + ":" + httpPort() + "\nX-Hidden: 1\r\n\r\n")).startsWith("HTTP/1.1 400 ");
            assertThat(readsEndOfStream(socket)).isTrue();
        }
        assertRecorded(SANDBOX, SANDBOX_IP, "", "HTTP", "proxy_malformed_request");
        assertThat(outside.httpRequests.get()).isEqualTo(before);
    }

    /**
     * Request smuggling: a chunked body whose last chunk ends with a bare LF, a second request for a host not on the
     * allowlist behind it. A lenient server ends the body at the bare LF and serves the second request; the proxy
     * read it as trailers of the first and relayed it. Now the body is refused where it stops being unambiguous, on
     * the explicit port and on the steered one alike.
     */
    @Test
    void aRequestSmuggledBehindABareLfAfterTheLastChunkIsRefusedOnBothPlainWays() throws Exception {
        String hidden = "GET /hidden HTTP/1.1\r\nHost: hidden.example.test:" + httpPort() + "\r\n\r\n";
        String authority = PLAIN_HOST + ":" + httpPort();
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, "POST http://" + authority + "/ HTTP/1.1\r\nHost: " + authority
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n" + hidden)).startsWith("HTTP/1.1 400 ");
        }
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_HTTP)) {
            assertThat(send(socket, "POST / HTTP/1.1\r\nHost: " + authority + "\r\nTransfer-Encoding: chunked"
                    + "\r\n\r\n3\r\nabc\r\n0\r\n\n" + hidden)).startsWith("HTTP/1.1 400 ");
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(anomalies.all())
                .extracting(Recorded::qname, Recorded::qtype, Recorded::reason).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(PLAIN_HOST, "HTTP", "proxy_malformed_request"),
                        org.assertj.core.groups.Tuple.tuple(PLAIN_HOST, "HTTP", "proxy_malformed_request")));
        assertThat(outside.seen).noneMatch(request -> request.contains("hidden"));
    }

    @Test
    void eachRequestOnAKeptAliveConnectionIsAdmittedAgain() throws Exception {
        int before = outside.httpRequests.get();
        try (Socket socket = fromSandbox()) {
            String first = send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/1 HTTP/1.1\r\n\r\n");
            allowlists.replace(COMPANY, List.of(TLS_HOST, OTHER_PLAIN_HOST));
            String second = send(socket, "GET http://" + PLAIN_HOST + ":" + httpPort() + "/2 HTTP/1.1\r\n\r\n");

            assertThat(first).startsWith("HTTP/1.1 200 ");
            assertThat(second).startsWith("HTTP/1.1 403 ");
        }
        assertRecorded(SANDBOX, SANDBOX_IP, PLAIN_HOST, "HTTP", "proxy_not_allowlisted");
        assertThat(outside.httpRequests.get()).isEqualTo(before + 1);
    }

    @Test
    void aClientHelloOfferingEncryptedClientHelloIsRefusedOnBothTlsWays() throws Exception {
        byte[] hello = ClientHellos.withExtension(ClientHellos.jdk(TLS_HOST, "TLSv1.3"), ClientHellos.ECH,
                new byte[] {0, 0, 1, 0, 1, 7, 0, 0, 0, 0});
        int before = outside.httpsRequests.get();
        try (Socket socket = from(SANDBOX_IP, ProxyWay.TRANSPARENT_TLS)) {
            socket.getOutputStream().write(hello);

            assertThat(readsEndOfStream(socket)).isTrue();
        }
        try (Socket socket = fromSandbox()) {
            assertThat(send(socket, connect(TLS_HOST, httpsPort()))).startsWith("HTTP/1.1 200 ");
            socket.getOutputStream().write(hello);

            assertThat(readsEndOfStream(socket)).isTrue();
        }
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(anomalies.all())
                .extracting(Recorded::qname, Recorded::qtype, Recorded::reason).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(TLS_HOST, "TLS", "proxy_encrypted_client_hello"),
                        org.assertj.core.groups.Tuple.tuple(TLS_HOST, "CONNECT", "proxy_encrypted_client_hello")));
        assertThat(outside.httpsRequests.get()).isEqualTo(before);
    }

    private void assertRecorded(Sandbox sandbox, String source, String name, String type, String reason) {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(anomalies.all())
                .containsExactly(new Recorded(sandbox, source, name, type, reason)));
    }

    private static int httpsPort() {
        return outside.https.actualPort();
    }

    private static int httpPort() {
        return outside.http.actualPort();
    }

    private static String connect(String host, int port) {
        return "CONNECT " + host + ":" + port + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n";
    }

    private Socket fromSandbox() throws IOException {
        return from(SANDBOX_IP);
    }

    private Socket from(String source) throws IOException {
        return from(source, ProxyWay.EXPLICIT);
    }

    private Socket from(String source, ProxyWay way) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(source, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", proxy.port(way).orElseThrow()), 5000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static SSLSocket tls(Socket tunnel, String serverName) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustingTheTestCertificate()}, null);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(tunnel, serverName, 443, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }




    private static boolean readsEndOfStream(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketException reset) {
            return true;
        }
    }

    /** The test's own server: its self-signed certificate is trusted, the proxy is what is under test. */
    private static final class TrustingTheTestCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
