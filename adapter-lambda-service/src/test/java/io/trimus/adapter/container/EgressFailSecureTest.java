package io.trimus.adapter.container;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.egress.SandboxAddressPool;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.egress.probe.ProxyProbe;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.adapter.support.Runs;
import io.trimus.commons.net.Cidr;
import io.trimus.adapter.support.EgressStandIn;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.ProxyStandIn;
import io.trimus.adapter.support.ResolverStandIn;
import io.trimus.adapter.support.Wiring;
import io.trimus.commons.net.Cidr;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fail-secure on the egress network, at the runner (built by the test; the app runs only because the egress-service REST
 * client needs it): a sandbox run while the network is not ready, or while egress-service cannot be reached, or while
 * the Trimus resolver or the Trimus egress proxy does not answer (or another server answers in its place), fails with
 * the reason and its container never starts; a run waits for parts that start late up to TRIMUS_EGRESS_READY_TIMEOUT,
 * and a cancel ends the wait at once.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class EgressFailSecureTest {

    private static final String NETWORK = "trimus-test-egress-failsecure";
    /**
     * TRIMUS_EGRESS_READY_TIMEOUT of the runs that never get an answer: long enough for several attempts (250 ms apart,
     * doubling), short enough not to be waited out for long.
     */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(2);
    /** When the parts of egress-service that start late come up; the runs waiting for them wait up to 30 s. */
    private static final Duration LATE = Duration.ofSeconds(1);

    private final DockerClient docker = DockerClients.local();
    private final UUID company = UUID.randomUUID();
    private final List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();
    private final EnsureEgressNetwork egressNetwork = Wiring.egressNetwork(docker,
            new EgressNetworkSettings(NETWORK, Cidr.ipv4Subnet("10.199.79.0/24"), "10.199.79.1", "trimus-egfs0",
                    Optional.empty()), "local");
    private final SandboxAddressPool addresses = new SandboxAddressPool();
    private final ResolverStandIn resolver = ResolverStandIn.start();
    private final ProxyStandIn proxy = ProxyStandIn.start();

    @AfterEach
    void cleanUp() throws Exception {
        resolver.close();
        proxy.close();
        Containers.removeByLabel(docker, ContainerPolicy.LABEL_COMPANY, company.toString());
        EgressTestResource.removeNetwork(docker, NETWORK);
        docker.close();
    }

    @Test
    void aSandboxRunBeforeTheEgressNetworkIsReadyFailsAndNothingIsCreated() throws Exception {
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();

        execute(run, registry(URI.create("http://127.0.0.1:8083")));

        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).isEqualTo("egress network " + NETWORK
                    + " is not ready: the adapter service has not checked it yet");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
        assertThat(docker.listNetworksCmd().withNameFilter(NETWORK).exec())
                .noneSatisfy(n -> assertThat(n.getName()).isEqualTo(NETWORK));
    }

    @Test
    void anUnreachableEgressServiceFailsTheRunAndItsContainerNeverStarts() throws Exception {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();

        execute(run, registry(URI.create("http://127.0.0.1:" + port)));

        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).isEqualTo("could not register the sandbox with egress-service: http://127.0.0.1:"
                    + port + " unreachable: connection refused; the container was not started");
        });
        assertThat(Containers.findByLabel(docker, ContainerPolicy.LABEL_RUN, run.runId().toString())).isEmpty();
        assertThat(Engine.containerEvents(run.runId(), since, "create")).as("its address was never claimed").isZero();
        assertThat(addresses.reserved()).as("its address was given back").isEmpty();
    }

    @Test
    void aResolverThatDoesNotAnswerFailsTheRunBeforeAnyContainerExists() {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        resolver.mode(ResolverStandIn.Mode.SILENT);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();

        execute(run, registry(URI.create("http://127.0.0.1:8083")));

        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).startsWith("the Trimus resolver at " + resolver.address() + " does not answer")
                    .endsWith("; the container was not started");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
        assertThat(addresses.reserved()).as("its address was given back").isEmpty();
    }

    @Test
    void aResolverThatIsNotTrimusFailsTheRun() {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        resolver.mode(ResolverStandIn.Mode.FOREIGN);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();

        execute(run, registry(URI.create("http://127.0.0.1:8083")));

        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).isEqualTo("the resolver at " + resolver.address() + " is not the Trimus resolver"
                    + " (it answered NXDOMAIN to the resolver check); the container was not started");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
    }

    // --- the egress proxy ------------------------------------------------------------------------------------

    @Test
    void aProxyThatDoesNotAnswerFailsTheRunBeforeAnyContainerExists() {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        proxy.close();
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();

        execute(run, registry(URI.create("http://127.0.0.1:8083")));

        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).startsWith("the Trimus egress proxy at " + proxy.address() + " does not answer (")
                    .endsWith("; the container was not started");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
        assertThat(addresses.reserved()).as("no address was claimed").isEmpty();
    }

    @Test
    void aServerThatIsNotTheTrimusProxyFailsTheRun() {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        proxy.mode(ProxyStandIn.Mode.FOREIGN);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();

        execute(run, registry(URI.create("http://127.0.0.1:8083")));

        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).isEqualTo("the server at " + proxy.address() + " is not the Trimus egress proxy"
                    + " (it answered HTTP 200 without X-Trimus-Proxy: ok to the proxy check); the container was not"
                    + " started");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
    }

    // --- waiting for egress-service (TRIMUS_EGRESS_READY_TIMEOUT) -------------------------------------------

    @Test
    void aRunWaitsForAResolverAndAProxyThatStartLateAndThenRuns() throws Exception {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        resolver.mode(ResolverStandIn.Mode.SILENT);
        int proxyPort = freePort();
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        List<ProxyStandIn> lateProxy = new CopyOnWriteArrayList<>();
        try (EgressStandIn registry = EgressStandIn.start(docker)) {
            later.schedule(() -> {
                resolver.mode(ResolverStandIn.Mode.TRIMUS);
                lateProxy.add(ProxyStandIn.start(proxyPort));
            }, LATE.toMillis(), TimeUnit.MILLISECONDS);
            RunRequested run = sandboxRun("echo ran-after-waiting");
            long started = System.nanoTime();

            execute(run, registry(URI.create(registry.url())),
                    Wiring.proxyProbe(3128, Optional.of("127.0.0.1:" + proxyPort)), Duration.ofSeconds(30), begun(run));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(LATE);
            assertThat(reported).extracting(RunStatusChanged::status)
                    .containsExactly(RunState.RUNNING, RunState.SUCCEEDED);
            assertThat(reported.get(1).output()).contains("ran-after-waiting");
        } finally {
            later.shutdownNow();
            lateProxy.forEach(ProxyStandIn::close);
        }
    }

    @Test
    void aRunWaitsForASandboxRegistryThatStartsLate() throws Exception {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        int registryPort = freePort();
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        List<HttpServer> lateRegistry = new CopyOnWriteArrayList<>();
        try {
            later.schedule(() -> lateRegistry.add(acceptingRegistry(registryPort)), LATE.toMillis(),
                    TimeUnit.MILLISECONDS);
            RunRequested run = sandboxRun("echo registered-after-waiting");

            execute(run, registry(URI.create("http://127.0.0.1:" + registryPort)), proxyProbe(),
                    Duration.ofSeconds(30), begun(run));

            assertThat(reported).extracting(RunStatusChanged::status)
                    .containsExactly(RunState.RUNNING, RunState.SUCCEEDED);
            assertThat(reported.get(1).output()).contains("registered-after-waiting");
        } finally {
            later.shutdownNow();
            lateRegistry.forEach(server -> server.stop(0));
        }
    }

    @Test
    void aRunWhoseProxyNeverAnswersFailsAfterTheReadyTimeoutWithTheLastReason() {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        proxy.mode(ProxyStandIn.Mode.FOREIGN);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();
        long started = System.nanoTime();

        execute(run, registry(URI.create("http://127.0.0.1:8083")), proxyProbe(), READY_TIMEOUT, begun(run));

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).isBetween(READY_TIMEOUT, READY_TIMEOUT.plusSeconds(7));
        assertThat(proxy.checks()).as("it kept asking").isGreaterThanOrEqualTo(3);
        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).isEqualTo("the server at " + proxy.address() + " is not the Trimus egress proxy"
                    + " (it answered HTTP 200 without X-Trimus-Proxy: ok to the proxy check); the container was not"
                    + " started");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
    }

    @Test
    void aRunWhoseRegistryNeverAnswersFailsAfterTheReadyTimeout() throws Exception {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        int port = freePort();
        RunRequested run = sandboxRun();
        long started = System.nanoTime();

        execute(run, registry(URI.create("http://127.0.0.1:" + port)), proxyProbe(), READY_TIMEOUT, begun(run));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(READY_TIMEOUT,
                READY_TIMEOUT.plusSeconds(7));
        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.FAILED);
            assertThat(end.error()).isEqualTo("could not register the sandbox with egress-service: http://127.0.0.1:"
                    + port + " unreachable: connection refused; the container was not started");
        });
        assertThat(addresses.reserved()).as("its address was given back").isEmpty();
    }

    @Test
    void aRunCancelledWhileItWaitsEndsCancelledAtOnceAndNeverStarts() throws Exception {
        assertThat(egressNetwork.attempt().ready()).isTrue();
        proxy.mode(ProxyStandIn.Mode.FOREIGN);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = sandboxRun();
        RunHandle handle = begun(run);
        Thread worker = new Thread(() -> execute(run, registry(URI.create("http://127.0.0.1:8083")), proxyProbe(),
                Duration.ofSeconds(60), handle));
        worker.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.checks() >= 2);

        long cancelledAt = System.nanoTime();
        assertThat(handle.cancel()).isEqualTo(RunHandle.CancelAction.WORKER_STOPS);
        worker.join(Duration.ofSeconds(10).toMillis());

        assertThat(worker.isAlive()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isLessThan(Duration.ofMillis(1500));
        assertThat(reported).singleElement().satisfies(end -> {
            assertThat(end.status()).isEqualTo(RunState.CANCELLED);
            assertThat(end.error()).isEqualTo("cancelled before it started");
        });
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
    }

    private RunRequested sandboxRun() {
        return sandboxRun("echo should never run");
    }

    private RunRequested sandboxRun(String script) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), company, UUID.randomUUID(), "docker",
                new ObjectMapper().valueToTree(Map.of("image", TestImages.busybox(docker), "network", NETWORK,
                        "command", List.of("sh", "-c", script))), null, null, Instant.now());
    }

    private static EgressServiceClient registry(URI url) {
        return Wiring.egressService(url, Duration.ofSeconds(2));
    }

    private ProxyProbe proxyProbe() {
        return Wiring.proxyProbe(3128, Optional.of(proxy.address()));
    }

    private static RunHandle begun(RunRequested run) {
        RunHandle handle = new RunHandle(run);
        handle.begin();
        return handle;
    }

    private void execute(RunRequested run, EgressServiceClient egressService) {
        execute(run, egressService, proxyProbe(), Duration.ZERO, begun(run));
    }

    private void execute(RunRequested run, EgressServiceClient egressService, ProxyProbe proxyProbe,
                         Duration readyTimeout, RunHandle handle) {
        DockerContainerRunner runner = Wiring.runner(docker, reported::add, "local", 65536,
                Wiring.attachment(docker, egressNetwork, addresses, egressService,
                        Wiring.resolverProbe(Optional.of(resolver.address())), proxyProbe, readyTimeout));
        ContainerPolicy policy = ContainerPolicy.forDocker(DockerAdapterConfig.parse(run.adapterConfig()),
                new DockerDefaults(100, "64m", List.of(), 3600), run);
        runner.run(run, policy, handle);
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** A sandbox registry on {@code port} that accepts every registration and deregistration. */
    private static HttpServer acceptingRegistry(int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 8);
            server.createContext("/internal/sandboxes/", exchange -> {
                try (exchange) {
                    exchange.getRequestBody().readAllBytes();
                    exchange.sendResponseHeaders(204, -1);
                }
            });
            server.start();
            return server;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
