package io.trimus.egress.proxy;

import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RecordingAnomalies;
import io.trimus.egress.anomaly.RecordingAnomalies.Recorded;
import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.destination.OutsideAddresses;
import io.trimus.egress.proxy.destination.TestDestinations;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.trimus.egress.proxy.ProxySockets.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A policy change reaches connections already open (issue 31's "live everywhere"): on real loopback sockets, a
 * sandbox holds a TLS tunnel (CONNECT, then a kept-alive HTTPS request) and a kept-alive plain-HTTP connection through
 * the proxy; each change below, made to the in-memory policy as a replica's feed or API makes it, closes within 2 s the
 * open connections it no longer admits, with the anomaly a new connection would get, and leaves the others open and
 * working: the host removed from the company's list; a report-mode connection once the company enforces; the host
 * missing from the agent's own new list; request rules added to a host an open tunnel carries unchecked; the sandbox
 * deregistered. Another company's change touches nothing. On Netty's native transport (epoll), as deployed.
 */
class LivePolicyProxyTest {
    private static final String SANDBOX_IP = "127.0.0.2";
    private static final String HTTPS_IP = "127.0.0.5";
    private static final String HTTP_IP = "127.0.0.6";
    private static final String TLS_HOST = "live.example.test";
    private static final String PLAIN_HOST = "plain.example.test";
    private static final UUID COMPANY = UUID.randomUUID();
    private static final UUID AGENT = UUID.randomUUID();
    private static final Sandbox SANDBOX = new Sandbox(SANDBOX_IP, COMPANY, AGENT, UUID.randomUUID(), "c1");
    /** The budget of the issue: a change applies to open connections within 2 s. */
    private static final Duration LIVE = Duration.ofSeconds(2);

    private static Vertx vertx;
    private static TestUpstreamDns dns;
    private static OutsideServers outside;
    private static UpstreamResolver upstream;

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final AgentAllowlistCache agentLists = new AgentAllowlistCache();
    private final EgressModeCache modes = new EgressModeCache();
    private final RecordingAnomalies anomalies = new RecordingAnomalies();
    private final List<ConnectionRecord> connections = new CopyOnWriteArrayList<>();
    private long revision = 1;
    private ProxyServer proxy;

    @BeforeAll
    static void startOutside() throws Exception {
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        assertThat(vertx.isNativeTransportEnabled()).isTrue();
        outside = new OutsideServers(vertx, HTTPS_IP, TLS_HOST, HTTP_IP);
        dns = new TestUpstreamDns().a(TLS_HOST, HTTPS_IP).a(PLAIN_HOST, HTTP_IP).start();
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
        companyList(TLS_HOST, PLAIN_HOST);
        int tlsPort = outside.https.actualPort();
        int httpPort = outside.http.actualPort();
        proxy = PlainProxies.server(vertx,
                new ProxyPolicy(sandboxes, allowlists, agentLists, modes, () -> true, Set.of(tlsPort, httpPort),
                        Set.of(tlsPort)),
                TestDestinations.uncached(upstream, new OutsideAddresses(HTTPS_IP, HTTP_IP)), anomalies,
                connections::add, new ProxyLimits(8192, 16, Duration.ofMinutes(1), Duration.ofMinutes(5),
                        Duration.ofSeconds(5), Duration.ofSeconds(10)), 1);
        OutsideServers.await(proxy.start("127.0.0.1", 0));
    }

    @AfterEach
    void stopProxy() {
        OutsideServers.await(proxy.close());
    }

    @Test
    void aHostRemovedFromTheCompanysListLosesItsOpenTunnelAndOnlyIt() throws Exception {
        try (Open tunnel = tunnel(); Socket plain = plain()) {
            companyList(PLAIN_HOST);

            tunnel.assertClosedWithin(LIVE);
            assertThat(send(plain, plainGet("/after"))).startsWith("HTTP/1.1 200");
        }
        await().atMost(LIVE).untilAsserted(() -> assertThat(anomalies.all())
                .containsExactly(new Recorded(SANDBOX, SANDBOX_IP, TLS_HOST, "CONNECT", "proxy_not_allowlisted")));
        await().atMost(LIVE).untilAsserted(() -> assertThat(connections).extracting(ConnectionRecord::reason)
                .contains("proxy_not_allowlisted"));
    }

    @Test
    void aConnectionReportModeLetThroughIsClosedOnceTheCompanyEnforces() throws Exception {
        modes.replace(COMPANY, EgressMode.REPORT, revision++);
        companyList(PLAIN_HOST);
        try (Open tunnel = tunnel()) {
            assertThat(anomalies.all()).extracting(Recorded::enforced).containsExactly(false);

            modes.replace(COMPANY, EgressMode.ENFORCE, revision++);

            tunnel.assertClosedWithin(LIVE);
        }
        await().atMost(LIVE).untilAsserted(() -> assertThat(anomalies.all()).extracting(Recorded::reason,
                Recorded::enforced).containsExactly(org.assertj.core.groups.Tuple.tuple("proxy_not_allowlisted", false),
                org.assertj.core.groups.Tuple.tuple("proxy_not_allowlisted", true)));
    }

    @Test
    void anAgentsOwnNewListWithoutTheHostClosesItsTunnel() throws Exception {
        try (Open tunnel = tunnel(); Socket plain = plain()) {
            agentLists.replace(COMPANY, AGENT, List.of(PLAIN_HOST), revision++);

            tunnel.assertClosedWithin(LIVE);
            assertThat(send(plain, plainGet("/after"))).startsWith("HTTP/1.1 200");
        }
        await().atMost(LIVE).untilAsserted(() -> assertThat(anomalies.all()).extracting(Recorded::reason)
                .containsExactly("proxy_agent_not_allowlisted"));
    }

    @Test
    void requestRulesAddedToAHostCloseTheTunnelThatCarriedItUnchecked() throws Exception {
        try (Open tunnel = tunnel()) {
            companyList("{\"host\":\"" + TLS_HOST + "\",\"methods\":[\"GET\"]}", PLAIN_HOST);

            tunnel.assertClosedWithin(LIVE);
        }
        assertThat(anomalies.all()).as("nothing was refused: the next connection is checked").isEmpty();
        await().atMost(LIVE).untilAsserted(() -> assertThat(connections).extracting(ConnectionRecord::reason)
                .contains("rules_changed"));
    }

    @Test
    void aDeregisteredSandboxLosesItsOpenConnections() throws Exception {
        try (Open tunnel = tunnel(); Socket plain = plain()) {
            sandboxes.deregister(SANDBOX_IP, SANDBOX.runId());

            tunnel.assertClosedWithin(LIVE);
            assertThat(closedWithin(plain, LIVE)).isTrue();
        }
    }

    @Test
    void anotherCompanysChangeLeavesOpenConnectionsAlone() throws Exception {
        try (Open tunnel = tunnel()) {
            allowlists.replace(UUID.randomUUID(), List.of(PLAIN_HOST), revision++);
            modes.replace(UUID.randomUUID(), EgressMode.REPORT, revision++);
            // for two sweeps and more, the tunnel goes on carrying requests
            await().during(Duration.ofMillis(2 * ProxyServer.RECHECK_MS + 100)).atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(send(tunnel.tls, tlsGet("/still"))).startsWith("HTTP/1.1 200"));
        }
        assertThat(anomalies.all()).isEmpty();
    }

    private void companyList(String... entries) {
        allowlists.replace(COMPANY, List.of(entries), revision++);
    }

    /** A TLS tunnel through CONNECT that carried one kept-alive request. */
    private Open tunnel() throws Exception {
        Socket socket = fromSandbox();
        int port = outside.https.actualPort();
        assertThat(send(socket, "CONNECT " + TLS_HOST + ":" + port + " HTTP/1.1\r\nHost: " + TLS_HOST + ":" + port
                + "\r\n\r\n")).startsWith("HTTP/1.1 200");
        SSLSocket tls = tls(socket);
        assertThat(send(tls, tlsGet("/first"))).startsWith("HTTP/1.1 200");
        return new Open(socket, tls);
    }

    /** A plain-HTTP connection (absolute form) that carried one kept-alive request. */
    private Socket plain() throws IOException {
        Socket socket = fromSandbox();
        assertThat(send(socket, plainGet("/first"))).startsWith("HTTP/1.1 200");
        return socket;
    }

    private static String tlsGet(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + TLS_HOST + "\r\n\r\n";
    }

    private static String plainGet(String path) {
        return "GET http://" + PLAIN_HOST + ":" + outside.http.actualPort() + path + " HTTP/1.1\r\nHost: " + PLAIN_HOST
                + ":" + outside.http.actualPort() + "\r\n\r\n";
    }

    private Socket fromSandbox() throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(SANDBOX_IP, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", proxy.port()), 5000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static SSLSocket tls(Socket tunnel) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustingTheTestCertificate()}, null);
        SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(tunnel, TLS_HOST, 443, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(TLS_HOST)));
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        return tls;
    }

    /**
     * Whether the peer closes the socket within {@code budget}: a read that ends the stream or is reset, where a read
     * that times out means the connection is still open.
     */
    private static boolean closedWithin(Socket socket, Duration budget) throws IOException {
        socket.setSoTimeout((int) budget.toMillis());
        try {
            return socket.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException open) {
            return false;
        } catch (SocketException | javax.net.ssl.SSLException reset) {
            return true;
        }
    }

    /** An open tunnel: the socket to the proxy and the TLS session inside it. */
    private record Open(Socket socket, SSLSocket tls) implements AutoCloseable {
        void assertClosedWithin(Duration budget) throws IOException {
            assertThat(closedWithin(tls, budget)).as("the tunnel was closed within " + budget).isTrue();
        }

        @Override
        public void close() throws IOException {
            socket.close();
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
