package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RecordingAnomalies;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.feed.ListenerOptions;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.policy.replica.PolicyFeed;
import io.trimus.egress.proxy.ProxyServer;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ClientHellos;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.destination.OutsideAddresses;
import io.trimus.egress.proxy.destination.TestDestinations;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.putAllowlist;
import static io.trimus.egress.api.EgressApi.putPolicy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections already open through a second egress-service replica follow a change made through this one (issue 31:
 * "connections already open to a host that was removed are closed", on every replica): the second replica has its own
 * allowlists, agents' lists, modes and policy feed on the same database, and its own proxy, through which a sandbox
 * (a loopback source address) holds tunnels to an "outside" echo server. A host removed from the company's list, a
 * switch to enforce, and an agent's own list without the host, each made through this service's API, close the tunnels
 * they no longer admit on the second replica within 2 s of the API's answer; a tunnel still admitted keeps working.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class ReplicaConnectionsTest {
    private static final Logger LOG = Logger.getLogger(ReplicaConnectionsTest.class);
    private static final Duration LIVE = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String OUTSIDE_IP = "127.0.0.8";
    private static final String SANDBOX_IP = "127.0.0.3";
    private static final String REMOVED = "removed.replica.test";
    private static final String KEPT = "kept.replica.test";

    private static Vertx outsideVertx;
    private static NetServer echo;
    private static TestUpstreamDns dns;

    @Inject
    Vertx vertx;
    @Inject
    TrimusConfig config;
    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String url;
    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;
    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startOutside() throws Exception {
        outsideVertx = Vertx.vertx();
        echo = await(outsideVertx.createNetServer()
                .connectHandler(socket -> socket.handler(socket::write))
                .listen(0, OUTSIDE_IP));
        dns = new TestUpstreamDns().a(REMOVED, OUTSIDE_IP).a(KEPT, OUTSIDE_IP).start();
    }

    @AfterAll
    static void stopOutside() {
        dns.close();
        await(outsideVertx.close());
    }

    @AfterEach
    void closeReplica() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        opened.clear();
    }

    /** The second replica: its own policy copy kept by its own feed, its own proxy; the sandbox registered on it. */
    private ProxyServer secondReplica(UUID company, UUID agent, int port) {
        PgConnectOptions database = ListenerOptions.of(url, user, password);
        AllowlistCache lists = new AllowlistCache();
        AgentAllowlistCache agentLists = new AgentAllowlistCache();
        EgressModeCache modes = new EgressModeCache();
        PolicyFeed feed = new PolicyFeed(vertx, database, lists, agentLists, modes,
                config.egress().policy().checkInterval(), config.egress().policy().staleAfter());
        opened.add(feed::stop);
        feed.start(WAIT).await().atMost(WAIT);
        SandboxRegistry sandboxes = new SandboxRegistry();
        sandboxes.register(new Sandbox(SANDBOX_IP, company, agent, UUID.randomUUID(), "replica"));
        UpstreamResolver upstream = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", dns.port()),
                Duration.ofSeconds(2), 64);
        opened.add(() -> await(upstream.close()));
        ProxyServer proxy = new ProxyServer(vertx,
                new ProxyPolicy(sandboxes, lists, agentLists, modes, feed, Set.of(port), Set.of(port)),
                TestDestinations.uncached(upstream, new OutsideAddresses(OUTSIDE_IP)), new RecordingAnomalies(),
                record -> { }, new ProxyLimits(8192, 16, Duration.ofMinutes(1), Duration.ofMinutes(5),
                        Duration.ofSeconds(5), Duration.ofSeconds(10)), 1, null, null);
        opened.add(() -> await(proxy.close()));
        await(proxy.start("127.0.0.1", 0));
        return proxy;
    }

    @Test
    void changesMadeThroughOneReplicaCloseWhatTheyNoLongerAdmitOnAnother() throws Exception {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        int port = echo.actualPort();
        String removed = REMOVED;
        String kept = KEPT;
        putAllowlist(company, Map.of("entries", List.of(removed, kept))).statusCode(200);
        ProxyServer second = secondReplica(company, agent, port);

        // the company's list loses a host
        try (Socket toRemoved = tunnel(second, REMOVED); Socket toKept = tunnel(second, KEPT)) {
            putAllowlist(company, Map.of("entries", List.of(kept))).statusCode(200);
            assertClosedWithinBudget(toRemoved, "a host removed from the company's list");
            assertThat(echoes(toKept)).isTrue();
        }

        // report mode let an unlisted host through; the switch to enforce closes that tunnel
        putPolicy(company, Map.of("mode", "report")).statusCode(200);
        try (Socket unlisted = awaitTunnel(second, REMOVED)) {
            putPolicy(company, Map.of("mode", "enforce")).statusCode(200);
            assertClosedWithinBudget(unlisted, "a switch to enforce");
        }

        // the agent gets a list of its own without the host
        try (Socket toKept = tunnel(second, KEPT)) {
            given().contentType(ContentType.JSON).body(Map.of("entries", List.of(removed)))
                    .put("/api/companies/{c}/agents/{a}/egress/allowlist", company, agent).then().statusCode(200);
            assertClosedWithinBudget(toKept, "an agent's own list without the host");
        }
    }

    private static void assertClosedWithinBudget(Socket socket, String change) throws IOException {
        long changed = System.nanoTime();
        assertThat(closedWithin(socket, LIVE)).as(change + " closes the second replica's tunnel within " + LIVE)
                .isTrue();
        LOG.infof("%s closed the second replica's tunnel %d ms after the API answered", change,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - changed));
    }

    /**
     * A tunnel through {@code proxy} to {@code host}'s echo port (a TLS port to the second replica, so report mode
     * admits it for a host off the list), carrying bytes both ways.
     */
    private static Socket tunnel(ProxyServer proxy, String host) throws Exception {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(SANDBOX_IP, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", proxy.port()), 5000);
        socket.setSoTimeout(10_000);
        String target = host + ":" + echo.actualPort();
        socket.getOutputStream().write(("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        String head = readHead(socket.getInputStream());
        if (!head.startsWith("HTTP/1.1 200")) {
            socket.close();
            throw new IOException("the CONNECT to " + target + " was answered " + head.lines().findFirst().orElse(""));
        }
        // a tunnel to a TLS port opens with a ClientHello naming its host; the echo server sends it back
        byte[] hello = ClientHellos.jdk(host, "TLSv1.3");
        socket.getOutputStream().write(hello);
        assertThat(socket.getInputStream().readNBytes(hello.length)).isEqualTo(hello);
        assertThat(echoes(socket)).isTrue();
        return socket;
    }

    /** The tunnel once the second replica's feed has the change that admits it (its own answer, not a sleep). */
    private static Socket awaitTunnel(ProxyServer proxy, String host) {
        return org.awaitility.Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> tunnel(proxy, host), java.util.Objects::nonNull);
    }

    private static boolean echoes(Socket socket) throws IOException {
        socket.getOutputStream().write("ping".getBytes(StandardCharsets.ISO_8859_1));
        return new String(socket.getInputStream().readNBytes(4), StandardCharsets.ISO_8859_1).equals("ping");
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private static boolean closedWithin(Socket socket, Duration budget) throws IOException {
        socket.setSoTimeout((int) budget.toMillis());
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
