package io.trimus.admin;

import com.github.dockerjava.api.DockerClient;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.trimus.testing.DockerClients;
import io.trimus.testing.OidcProvider;
import io.trimus.testing.Ports;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The whole system behind the dashboard, for every admin-ui test (GLOBAL): the shared real Kafka and PostgreSQL of
 * {@link TrimusInfraResource}, and the built jars of run-service, adapter-lambda-service and egress-service in child
 * JVMs. The adapter creates an egress network of the tests' own (not trimus-egress-allowlist, so a concurrent
 * egress test or {@code ./trimus up} keeps its resolver address) and egress-service serves DNS on its gateway.
 * The dashboard reaches run-service and egress-service through {@link TcpSwitch}es that tests can switch off
 * through a small control server ({@link #SWITCH_KEY}). A real OpenID Connect provider ({@link OidcProvider}) is
 * configured in run-service and the dashboard, so every dashboard test runs with "Sign in with …" on.
 */
public class DashboardStack implements QuarkusTestResourceLifecycleManager {
    /** The tests' egress network: what a docker agent's "network" names to be held by the resolver. */
    public static final String NETWORK = "trimus-ui-test-egress";
    static final String SUBNET = "10.199.96.0/24";
    static final String GATEWAY = "10.199.96.1";
    static final String BRIDGE = "trimus-uitest0";
    /** Base URL of run-service itself (not through the switch), for tests that set up data. */
    public static final String RUN_SERVICE_KEY = "trimus-test.run-service-direct";
    /** Base URL of egress-service itself. */
    public static final String EGRESS_SERVICE_KEY = "trimus-test.egress-service-direct";
    /** {@code http://127.0.0.1:PORT} of the switch control: POST /run-service/down, /run-service/up, … */
    public static final String SWITCH_KEY = "trimus-test.backend-switch";
    /** JDBC URL of the shared PostgreSQL, for tests that seed egress-service's tables in bulk. */
    public static final String JDBC_KEY = "trimus-test.jdbc-url";
    /** The provider's name on the sign-in page. */
    public static final String PROVIDER_NAME = "Test IdP";
    // the same fixed test key as run-service's %test profile; the adapter and egress-service derive the service
    // credential from it, so all three must share it
    private static final String ENCRYPTION_KEY = TestOperator.ENCRYPTION_KEY;

    private final TrimusInfraResource infra = new TrimusInfraResource();
    private ServiceProcess runService;
    private ServiceProcess adapter;
    private ServiceProcess egressService;
    private TcpSwitch runSwitch;
    private TcpSwitch egressSwitch;
    private HttpServer control;
    private OidcProvider oidc;

    @Override
    public Map<String, String> start() {
        Map<String, String> infraConfig = infra.start();
        String kafka = infraConfig.get("kafka.bootstrap.servers");
        Map<String, String> database = Map.of(
                "quarkus.datasource.reactive.url", infraConfig.get("quarkus.datasource.reactive.url"),
                "quarkus.datasource.jdbc.url", infraConfig.get("quarkus.datasource.jdbc.url"),
                "quarkus.flyway.username", "postgres", "quarkus.flyway.password", "postgres");
        List<Integer> ports = Ports.free(4);
        oidc = OidcProvider.start();
        int egressPort = ports.get(2);

        Map<String, String> runConfig = new HashMap<>(database);
        runConfig.put("kafka.bootstrap.servers", kafka);
        runConfig.put("trimus.encryption-key", ENCRYPTION_KEY);
        // the test operator exists: RestAssured and the browser tests act as it unless they sign in themselves
        runConfig.put("trimus.bootstrap.operator-token", TestOperator.TOKEN);
        // the test's egress network is not the default one: run-service must list it for docker agents to use it
        runConfig.put("trimus.docker.allowed-networks", "none," + NETWORK);
        runConfig.put("trimus.oidc.issuer", oidc.issuer());
        runConfig.put("trimus.oidc.client-id", OidcProvider.CLIENT_ID);
        Map<String, String> adapterConfig = Map.of(
                "kafka.bootstrap.servers", kafka,
                "trimus.encryption-key", ENCRYPTION_KEY,
                "trimus.egress.service-url", "http://127.0.0.1:" + egressPort,
                "trimus.egress.network.name", NETWORK,
                "trimus.egress.network.subnet", SUBNET,
                "trimus.egress.network.gateway", GATEWAY,
                "trimus.egress.network.bridge-name", BRIDGE);
        // two JVMs boot at once; the resolver needs the network the adapter creates, so egress-service comes after
        var run = CompletableFuture.supplyAsync(() -> ServiceProcess.start(module("run-service"), ports.get(0),
                runConfig));
        adapter = ServiceProcess.start(module("adapter-lambda-service"), ports.get(1), adapterConfig);
        runService = run.join();

        Map<String, String> egressConfig = new HashMap<>(database);
        egressConfig.put("kafka.bootstrap.servers", kafka);
        egressConfig.put("trimus.run-service.url", runService.baseUri().toString()); // who calls: GET /api/me
        egressConfig.put("trimus.encryption-key", ENCRYPTION_KEY);
        egressConfig.put("trimus.egress.dns.addr", GATEWAY + ":53");
        // nothing listens there: an allowed name gets SERVFAIL, and no test lookup ever leaves this machine
        egressConfig.put("trimus.egress.dns.upstream", "127.0.0.1:" + ports.get(3));
        egressService = ServiceProcess.start(module("egress-service"), egressPort, egressConfig);

        runSwitch = new TcpSwitch("run-service", runService.port());
        egressSwitch = new TcpSwitch("egress-service", egressService.port());
        control = controlServer();

        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", kafka);
        config.put("trimus.run-service-url", "http://127.0.0.1:" + runSwitch.port());
        config.put("trimus.egress-service-url", "http://127.0.0.1:" + egressSwitch.port());
        config.put(RUN_SERVICE_KEY, runService.baseUri().toString());
        config.put(EGRESS_SERVICE_KEY, egressService.baseUri().toString());
        config.put(SWITCH_KEY, "http://127.0.0.1:" + control.getAddress().getPort());
        config.put(JDBC_KEY, infraConfig.get("quarkus.datasource.jdbc.url"));
        config.put("trimus.oidc.issuer", oidc.issuer());
        config.put("trimus.oidc.client-id", OidcProvider.CLIENT_ID);
        config.put("trimus.oidc.client-secret", OidcProvider.CLIENT_SECRET);
        config.put("trimus.oidc.provider-name", PROVIDER_NAME);
        return config;
    }

    @Override
    public void stop() {
        if (control != null) {
            control.stop(0);
        }
        for (TcpSwitch s : new TcpSwitch[]{runSwitch, egressSwitch}) {
            if (s != null) {
                s.close();
            }
        }
        for (ServiceProcess p : new ServiceProcess[]{egressService, adapter, runService}) {
            if (p != null) {
                p.close();
            }
        }
        removeNetwork();
        if (oidc != null) {
            oidc.close();
        }
        infra.stop();
    }

    private HttpServer controlServer() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            Map<String, TcpSwitch> switches = Map.of("run-service", runSwitch, "egress-service", egressSwitch);
            server.createContext("/", exchange -> {
                String[] parts = exchange.getRequestURI().getPath().split("/");
                TcpSwitch target = parts.length == 3 ? switches.get(parts[1]) : null;
                int status = 404;
                if (target != null && parts[2].equals("down")) {
                    target.down();
                    status = 204;
                } else if (target != null && parts[2].equals("up")) {
                    target.up();
                    status = 204;
                }
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the switch control server", e);
        }
    }

    // the adapter created it for these tests only; it never deletes a network itself
    private static void removeNetwork() {
        try (DockerClient docker = DockerClients.local()) {
            docker.removeNetworkCmd(NETWORK).exec();
        } catch (Exception e) {
            // already gone, or a container of a killed run still holds it: the next start reuses it
        }
    }

    private static Path module(String name) {
        return Path.of("..", name);
    }
}
