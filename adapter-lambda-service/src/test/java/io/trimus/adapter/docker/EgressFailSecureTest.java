package io.trimus.adapter.docker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.egress.EgressNetworkSettings;
import io.trimus.adapter.egress.EgressServiceClient;
import io.trimus.adapter.egress.EnsureEgressNetwork;
import io.trimus.adapter.egress.ProxyProbe;
import io.trimus.adapter.egress.ReadyWait;
import io.trimus.adapter.egress.ResolverProbe;
import io.trimus.adapter.egress.SandboxAddressPool;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.net.Cidr;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.ProxyStandIn;
import io.trimus.adapter.support.ResolverStandIn;
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
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fail-secure on the egress network, at the runner (built by the test; the app runs only because the egress-service REST
 * client needs it): a sandbox run while the network is not ready, or while egress-service cannot be reached, or while
 * the Trimus resolver does not answer (or another resolver answers in its place), fails with the reason and its
 * container never starts.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class EgressFailSecureTest {

    private static final String NETWORK = "trimus-test-egress-failsecure";

    private final DockerClient docker = DockerClients.local();
    private final UUID company = UUID.randomUUID();
    private final List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();
    private final EnsureEgressNetwork egressNetwork = new EnsureEgressNetwork(docker,
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

    private RunRequested sandboxRun() {
        return new RunRequested(UUID.randomUUID(), UUID.randomUUID(), company, UUID.randomUUID(), "docker",
                new ObjectMapper().valueToTree(Map.of("image", TestImages.busybox(docker), "network", NETWORK,
                        "command", List.of("sh", "-c", "echo should never run"))), null, null, Instant.now());
    }

    private static EgressServiceClient registry(URI url) {
        return new EgressServiceClient(url, Duration.ofSeconds(2));
    }

    private void execute(RunRequested run, EgressServiceClient egressService) {
        DockerContainerRunner runner = new DockerContainerRunner(docker, reported::add, "local", 65536,
                new SandboxAttachment(docker, egressNetwork, addresses, egressService,
                        new ResolverProbe(Optional.of(resolver.address())),
                        new ProxyProbe(3128, Optional.of(proxy.address())), new ReadyWait(Duration.ZERO)));
        ContainerPolicy policy = ContainerPolicy.forDocker(DockerAdapterConfig.parse(run.adapterConfig()),
                new DockerDefaults(100, "64m", List.of(), 3600), run);
        RunHandle handle = new RunHandle(run);
        handle.begin();
        runner.run(run, policy, handle);
    }
}
