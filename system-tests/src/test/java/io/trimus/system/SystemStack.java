package io.trimus.system;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import com.sun.net.httpserver.HttpServer;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import io.trimus.testing.DockerClients;
import io.trimus.testing.Infra;
import io.trimus.testing.OidcProvider;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TcpRelay;
import io.trimus.testing.TestOperator;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The one stack of a system-test run, started by the first class that needs it and shared by every class after
 * ({@code @ExtendWith(SystemStack.class)}; stopped by a shutdown hook when the test JVM ends): real Kafka and
 * PostgreSQL ({@link Infra}), a real OpenID Connect provider ({@link OidcProvider}), and the built jars of run-service,
 * adapter-lambda-service, egress-service and admin-ui in child JVMs, all with the one test key
 * ({@link TestOperator#ENCRYPTION_KEY}). Every service binds port 0 and announces its port ({@link ServiceProcess});
 * the addresses services need of each other before those have started are {@link TcpRelay}s bound at once, so all
 * four boot at the same time.
 * <p>
 * The adapter uses an egress network of the tests' own ({@value #NETWORK}, made here before egress-service starts so
 * its resolver can bind the gateway; not trimus-egress-allowlist, so a concurrent egress test or {@code ./trimus up}
 * keeps its resolver address). The dashboard reaches run-service and egress-service through {@link TcpRelay}s that
 * tests switch off through a small control server ({@link #SWITCH_KEY}). RestAssured's default target is the
 * dashboard, with the test operator as the caller of every request that carries no {@code Authorization} of its own.
 */
public final class SystemStack implements BeforeAllCallback {
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
    /**
     * Where the resolver sends allowed names: port 1 of loopback, where nothing listens (binding it takes root, and
     * nothing here does), so an allowed name gets SERVFAIL at once and no test lookup ever leaves this machine.
     */
    private static final String NO_UPSTREAM = "127.0.0.1:1";
    private static final String ENCRYPTION_KEY = TestOperator.ENCRYPTION_KEY;

    private static SystemStack running;

    private final Map<String, String> config = new HashMap<>();
    private Infra infra;
    private OidcProvider oidc;
    private ServiceProcess runService;
    private ServiceProcess adapter;
    private ServiceProcess egressService;
    private ServiceProcess dashboard;
    private TcpRelay runRelay;
    private TcpRelay egressRelay;
    private TcpRelay runSwitch;
    private TcpRelay egressSwitch;
    private HttpServer control;

    private SystemStack() {
    }

    /** The running stack, started now if no class started it yet. */
    public static synchronized SystemStack get() {
        if (running == null) {
            SystemStack stack = new SystemStack();
            try {
                stack.start();
            } catch (RuntimeException e) {
                stack.stop();
                throw e;
            }
            Runtime.getRuntime().addShutdownHook(new Thread(stack::stop, "trimus-system-stack-stop"));
            running = stack;
        }
        return running;
    }

    /** Starts the stack (once per JVM) and points RestAssured at the dashboard as the test operator. */
    @Override
    public void beforeAll(ExtensionContext context) {
        SystemStack stack = get();
        RestAssured.baseURI = "http://127.0.0.1";
        RestAssured.port = stack.dashboard.port();
        if (RestAssured.filters().stream().noneMatch(OperatorByDefault.class::isInstance)) {
            RestAssured.filters(new OperatorByDefault());
        }
    }

    /** One of the addresses above ({@link #RUN_SERVICE_KEY}, …) or {@code kafka.bootstrap.servers}. */
    public static String config(String key) {
        String value = get().config.get(key);
        if (value == null) {
            throw new IllegalArgumentException("the system stack has no " + key);
        }
        return value;
    }

    /** {@code http://127.0.0.1:PORT/} of the dashboard (admin-ui). */
    public static URI dashboard() {
        return URI.create(get().dashboard.baseUri() + "/");
    }

    /** {@link #dashboard()} as a URL, for the browser tests. */
    public static URL dashboardUrl() {
        try {
            return dashboard().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void start() {
        CompletableFuture<OidcProvider> provider = CompletableFuture.supplyAsync(OidcProvider::start);
        infra = Infra.startForTests();
        ensureNetwork();
        oidc = provider.join();
        String kafka = infra.bootstrapServers();
        Map<String, String> database = Map.of(
                "quarkus.datasource.reactive.url", infra.reactiveUrl(),
                "quarkus.datasource.jdbc.url", infra.jdbcUrl(),
                "quarkus.flyway.username", "postgres", "quarkus.flyway.password", "postgres");
        // what the services need of each other before those have started: bound now, pointed at them once up
        runRelay = new TcpRelay("run-service-relay");
        egressRelay = new TcpRelay("egress-service-relay");
        runSwitch = new TcpRelay("run-service");
        egressSwitch = new TcpRelay("egress-service");

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
                "trimus.egress.service-url", egressRelay.url(),
                "trimus.egress.network.name", NETWORK,
                "trimus.egress.network.subnet", SUBNET,
                "trimus.egress.network.gateway", GATEWAY,
                "trimus.egress.network.bridge-name", BRIDGE);

        Map<String, String> egressConfig = new HashMap<>(database);
        egressConfig.put("kafka.bootstrap.servers", kafka);
        egressConfig.put("trimus.run-service.url", runRelay.url()); // who calls: GET /api/me
        egressConfig.put("trimus.encryption-key", ENCRYPTION_KEY);
        egressConfig.put("trimus.egress.dns.addr", GATEWAY + ":53");
        egressConfig.put("trimus.egress.dns.upstream", NO_UPSTREAM);

        Map<String, String> dashboardConfig = new HashMap<>();
        dashboardConfig.put("kafka.bootstrap.servers", kafka);
        dashboardConfig.put("trimus.run-service-url", runSwitch.url());
        dashboardConfig.put("trimus.egress-service-url", egressSwitch.url());
        dashboardConfig.put("trimus.oidc.issuer", oidc.issuer());
        dashboardConfig.put("trimus.oidc.client-id", OidcProvider.CLIENT_ID);
        dashboardConfig.put("trimus.oidc.client-secret", OidcProvider.CLIENT_SECRET);
        dashboardConfig.put("trimus.oidc.provider-name", PROVIDER_NAME);
        // as admin-ui's %test profile: a stream re-checks its caller every second, not every 30 s
        dashboardConfig.put("trimus.streams.recheck", "1s");

        // all four boot at once; each is pointed at where the others will be
        var run = CompletableFuture.supplyAsync(() -> ServiceProcess.start(module("run-service"), runConfig));
        var adapting = CompletableFuture.supplyAsync(() -> ServiceProcess.start(module("adapter-lambda-service"),
                adapterConfig));
        var egress = CompletableFuture.supplyAsync(() -> ServiceProcess.start(module("egress-service"),
                egressConfig));
        var ui = CompletableFuture.supplyAsync(() -> ServiceProcess.start(module("admin-ui"), dashboardConfig));
        runService = joinOrNull(run);
        adapter = joinOrNull(adapting);
        egressService = joinOrNull(egress);
        dashboard = joinOrNull(ui);
        // every start that failed failed for a reason: report the first
        for (var starting : List.of(run, adapting, egress, ui)) {
            starting.join();
        }
        runRelay.target(runService.port());
        runSwitch.target(runService.port());
        egressRelay.target(egressService.port());
        egressSwitch.target(egressService.port());
        control = controlServer();

        config.put("kafka.bootstrap.servers", kafka);
        config.put(RUN_SERVICE_KEY, runService.baseUri().toString());
        config.put(EGRESS_SERVICE_KEY, egressService.baseUri().toString());
        config.put(SWITCH_KEY, "http://127.0.0.1:" + control.getAddress().getPort());
        config.put(JDBC_KEY, infra.jdbcUrl());
        config.put("trimus.oidc.issuer", oidc.issuer());
    }

    private void stop() {
        if (control != null) {
            control.stop(0);
        }
        for (TcpRelay s : new TcpRelay[]{runSwitch, egressSwitch, runRelay, egressRelay}) {
            if (s != null) {
                s.close();
            }
        }
        for (ServiceProcess p : new ServiceProcess[]{dashboard, egressService, adapter, runService}) {
            if (p != null) {
                p.close();
            }
        }
        removeNetwork();
        if (oidc != null) {
            oidc.close();
        }
        if (infra != null) {
            infra.close();
        }
    }

    private static ServiceProcess joinOrNull(CompletableFuture<ServiceProcess> starting) {
        try {
            return starting.join();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private HttpServer controlServer() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            Map<String, TcpRelay> switches = Map.of("run-service", runSwitch, "egress-service", egressSwitch);
            server.createContext("/", exchange -> {
                String[] parts = exchange.getRequestURI().getPath().split("/");
                TcpRelay target = parts.length == 3 ? switches.get(parts[1]) : null;
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

    /**
     * The egress network as the adapter makes it (internal, inter-container traffic off, its bridge name, the label
     * trimus.managed), made here so egress-service can bind its gateway while the adapter boots; the adapter uses a
     * network that is already there as it is.
     */
    private static void ensureNetwork() {
        DockerClient docker = DockerClients.local();
        try {
            docker.inspectNetworkCmd().withNetworkId(NETWORK).exec();
        } catch (NotFoundException missing) {
            docker.createNetworkCmd().withName(NETWORK).withDriver("bridge").withInternal(true)
                    .withEnableIpv6(false)
                    .withIpam(new Network.Ipam().withConfig(List.of(
                            new Network.Ipam.Config().withSubnet(SUBNET).withGateway(GATEWAY))))
                    .withOptions(Map.of("com.docker.network.bridge.enable_icc", "false",
                            "com.docker.network.bridge.name", BRIDGE))
                    .withLabels(Map.of("trimus.managed", "true"))
                    .exec();
        }
    }

    // made for these tests only; the adapter never deletes a network itself
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

    /** Adds the test operator's {@code Authorization} to RestAssured requests without one. */
    private static final class OperatorByDefault implements Filter {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                               FilterContext context) {
            if (!request.getHeaders().hasHeaderWithName("Authorization")) {
                request.header("Authorization", TestOperator.HEADER);
            }
            return context.next(request, response);
        }
    }
}
