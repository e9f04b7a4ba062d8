package io.trimus.adapter;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Network;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.adapter.egress.SandboxAddressPool;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.commons.net.Cidr;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.Registrations;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.commons.net.Cidr;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.adapter.support.EgressTestResource.BRIDGE;
import static io.trimus.adapter.support.EgressTestResource.FOREIGN_NETWORK;
import static io.trimus.adapter.support.EgressTestResource.GATEWAY;
import static io.trimus.adapter.support.EgressTestResource.NETWORK;
import static io.trimus.adapter.support.EgressTestResource.SUBNET;
import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

/**
 * The egress side of the docker adapter (DESIGN.md §6) on the real engine: the network it ensures at boot, and
 * sandboxes pinned to a pool address, given the gateway as resolver and registered with egress-service (a stand-in
 * HTTP server here) before they start, failing closed when that registration fails.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class EgressSandboxTest {

    private static final UUID COMPANY = UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(30);
    private static String image;

    private final RunBus bus = RunBus.get();
    private final Registrations registrations = Registrations.ofApp();

    @Inject
    EnsureEgressNetwork egressNetwork;

    @Inject
    SandboxAddressPool addresses;

    @Inject
    RunDispatcher dispatcher;

    @BeforeAll
    static void image() {
        image = Engine.busybox();
    }

    @BeforeEach
    void egressNetworkIsReady() {
        await().atMost(Duration.ofSeconds(60)).until(() -> egressNetwork.status().ready());
    }

    @AfterEach
    void removeLeftovers() {
        Engine.removeCompanyContainers(COMPANY);
        EgressTestResource.removeTestContainers(Engine.docker());
    }

    @AfterAll
    static void removeCompanyContainers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    // --- the network ----------------------------------------------------------------------------------------

    @Test
    void theNetworkIsCreatedAtBootInternalWithItsSubnetAndGatewayAndNoTrafficBetweenSandboxes() {
        Network network = Engine.docker().inspectNetworkCmd().withNetworkId(NETWORK).exec();

        assertThat(network.getName()).isEqualTo(NETWORK);
        assertThat(network.getDriver()).isEqualTo("bridge");
        assertThat(network.getInternal()).isTrue();
        assertThat(network.getIpam().getConfig()).singleElement().satisfies(ipam -> {
            assertThat(ipam.getSubnet()).isEqualTo(SUBNET);
            assertThat(ipam.getGateway()).isEqualTo(GATEWAY);
        });
        assertThat(network.getOptions())
                .containsEntry("com.docker.network.bridge.enable_icc", "false")
                .containsEntry("com.docker.network.bridge.name", BRIDGE);
        assertThat(network.getLabels()).containsEntry("trimus.managed", "true");
        assertThat(Path.of("/sys/class/net", BRIDGE)).as("the bridge on the host").exists();
        assertThat(egressNetwork.status().network().id()).isEqualTo(network.getId());
    }

    @Test
    void aNetworkThatExistedBeforeBootUnderAnotherNameIsLeftAsItWas() {
        String foreignId = ConfigProvider.getConfig()
                .getValue(EgressTestResource.FOREIGN_NETWORK_ID_KEY, String.class);

        Network foreign = Engine.docker().inspectNetworkCmd().withNetworkId(foreignId).exec();

        assertThat(foreign.getName()).isEqualTo(FOREIGN_NETWORK);
        assertThat(foreign.getInternal()).isFalse();
        assertThat(foreign.getIpam().getConfig()).singleElement()
                .satisfies(ipam -> assertThat(ipam.getSubnet()).isEqualTo(EgressTestResource.FOREIGN_SUBNET));
        assertThat(foreign.getLabels()).doesNotContainKey("trimus.managed");
        assertThat(foreign.getOptions()).doesNotContainKeys("com.docker.network.bridge.enable_icc",
                "com.docker.network.bridge.name");
    }

    @Test
    void readinessReportsTheEgressNetworkUp() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("checks.find { it.name == 'egress-network' }.status", is("UP"))
                .body("checks.find { it.name == 'egress-network' }.data.subnet", is(SUBNET))
                .body("checks.find { it.name == 'egress-network' }.data.dns", is(GATEWAY)));
    }

    // --- sandboxes ------------------------------------------------------------------------------------------

    @Test
    void aSandboxGetsAPoolAddressAndTheGatewayAsResolverAndIsRegisteredBeforeItStartsAndDeregisteredAfter() {
        RunRequested run = sandbox("echo up; exec sleep 300");
        bus.request(run);
        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        String ip = addressOf(container);

        assertThat(container.getHostConfig().getNetworkMode()).isEqualTo(NETWORK);
        assertThat(container.getHostConfig().getDns()).containsExactly(GATEWAY);
        assertThat(container.getNetworkSettings().getNetworks()).containsOnlyKeys(NETWORK);
        assertThat(container.getNetworkSettings().getNetworks().get(NETWORK).getIpamConfig().getIpv4Address())
                .as("pinned with --ip").isEqualTo(ip);
        assertPoolAddress(ip);

        List<Registrations.Request> puts = registrations.putsOf(run.runId());
        assertThat(puts).hasSize(2).allSatisfy(put -> {
            assertThat(put.ip()).isEqualTo(ip);
            assertThat(put.contentType()).isEqualTo("application/json");
            assertThat(put.field("company_id")).isEqualTo(COMPANY.toString());
            assertThat(put.field("agent_id")).isEqualTo(run.agentId().toString());
            assertThat(put.field("run_id")).isEqualTo(run.runId().toString());
        });
        assertThat(puts.get(0).field("container_id")).as("the address is claimed before the container exists")
                .isNull();
        assertThat(puts.get(1)).satisfies(put -> {
            assertThat(put.field("container_id")).isEqualTo(container.getId());
            assertThat(put.containerState()).as("the container when egress-service heard of it").isEqualTo("created");
            assertThat(put.receivedAt()).isBefore(Instant.parse(container.getState().getStartedAt()));
            assertThat(put.receivedAt()).isBeforeOrEqualTo(bus.await(run.runId(), RUNNING).occurredAt());
        });
        assertThat(registrations.deletesOf(ip)).isEmpty();
        assertThat(addresses.reserved()).contains(ip);

        bus.cancel(run);

        assertThat(bus.awaitEnd(run.runId(), END).status()).isEqualTo(CANCELLED);
        await().atMost(Duration.ofSeconds(10)).until(() -> !registrations.deletesOf(ip).isEmpty());
        assertThat(registrations.deletesOf(ip)).singleElement().satisfies(delete -> {
            assertThat(delete.containerState()).as("deregistered once the sandbox can no longer send")
                    .isEqualTo("absent");
            assertThat(delete.receivedAt()).isAfterOrEqualTo(puts.get(1).receivedAt());
            assertThat(delete.runId()).as("only the run that holds it can deregister it")
                    .isEqualTo(run.runId().toString());
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> !addresses.reserved().contains(ip));
    }

    @Test
    void twoSandboxesAtTheSameTimeGetDifferentAddresses() {
        RunRequested first = sandbox("exec sleep 300");
        RunRequested second = sandbox("exec sleep 300");
        bus.request(first);
        bus.request(second);

        String firstIp = addressOf(Engine.awaitRunning(first.runId()));
        String secondIp = addressOf(Engine.awaitRunning(second.runId()));

        assertThat(firstIp).isNotEqualTo(secondIp);
        assertPoolAddress(firstIp);
        assertPoolAddress(secondIp);
        assertThat(registrations.putsOf(first.runId())).hasSize(2)
                .allSatisfy(put -> assertThat(put.ip()).isEqualTo(firstIp));
        assertThat(registrations.putsOf(second.runId())).hasSize(2)
                .allSatisfy(put -> assertThat(put.ip()).isEqualTo(secondIp));
        bus.cancel(first);
        bus.cancel(second);
        assertThat(bus.awaitEnd(first.runId(), END).status()).isEqualTo(CANCELLED);
        assertThat(bus.awaitEnd(second.runId(), END).status()).isEqualTo(CANCELLED);
    }

    @Test
    void aSandboxLeftByAPreviousProcessIsDeregisteredWithItsRunWhenItIsRemovedAtBoot() {
        RunRequested run = sandbox("exec sleep 300");
        String ip = "10.199.77.250";
        // what a killed adapter process leaves: a labelled sandbox at its pinned address, still registered
        String leftover = Engine.docker().createContainerCmd(image).withName("trimus-run-" + run.runId())
                .withLabels(Map.of("trimus.company_id", COMPANY.toString(), "trimus.agent_id",
                        run.agentId().toString(), "trimus.run_id", run.runId().toString()))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode(NETWORK))
                .withIpv4Address(ip)
                .withCmd("sleep", "300").exec().getId();
        Engine.docker().startContainerCmd(leftover).exec();

        dispatcher.reconcile(); // what the service does at boot

        assertThat(bus.awaitEnd(run.runId()).status()).isEqualTo(FAILED);
        assertThat(Engine.containerOf(run.runId())).isEmpty();
        assertThat(registrations.deletesOf(ip)).singleElement()
                .satisfies(delete -> assertThat(delete.runId()).isEqualTo(run.runId().toString()));
    }

    @Test
    void anIdPrefixOfTheEgressNetworkIsRefusedLikeAnyUnlistedName() {
        // Docker resolves an id prefix too: it must not be a way onto the egress network around the registration
        String idPrefix = egressNetwork.status().network().id().substring(0, 12);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "network", idPrefix,
                "command", sh("echo should never run")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).startsWith("adapter_config.network network " + idPrefix + " is not available");
        assertThat(bus.states(run.runId())).containsExactly(REJECTED);
        assertThat(registrations.putsOf(run.runId())).isEmpty();
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
    }

    // --- the egress proxy's settings ---------------------------------------------------------------------------

    @Test
    void everyContainerOnTheEgressNetworkGetsTrimussProxySettingsWhateverItsAgentAsked() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "network", NETWORK, "env",
                Map.of("HTTPS_PROXY", "http://elsewhere.test:8080", "no_proxy", "*", "Http_Proxy",
                        "http://elsewhere.test:8080", "KEPT", "yes"), "command", sh("env | sort")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        String proxy = "http://" + GATEWAY + ":3128";
        assertThat(end.output().lines()).as("what the started container's environment holds")
                .contains("HTTPS_PROXY=" + proxy, "HTTP_PROXY=" + proxy, "https_proxy=" + proxy,
                        "http_proxy=" + proxy, "NO_PROXY=localhost,127.0.0.1,::1",
                        "no_proxy=localhost,127.0.0.1,::1", "KEPT=yes")
                .noneSatisfy(line -> assertThat(line).contains("elsewhere"));
    }

    @Test
    void aContainerOffTheEgressNetworkGetsNoProxySettings() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("env | sort")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).contains("TRIMUS_RUN_ID=" + run.runId());
        assertThat(end.output().lines()).noneSatisfy(line -> assertThat(line.toLowerCase(java.util.Locale.ROOT))
                .containsPattern("^(https?|no)_proxy="));
    }

    // --- failing closed -------------------------------------------------------------------------------------

    @Test
    void aRegistrationAnswered500FailsTheRunAndItsContainerNeverStarts() {
        UUID company = UUID.randomUUID();
        registrations.answer(company, 500);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = Runs.docker(company, Map.of("image", image, "network", NETWORK,
                "command", sh("echo should never run")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("could not register the sandbox with egress-service: "
                + registrationsUrl() + " answered HTTP 500: the sandbox registry is unavailable;"
                + " the container was not started");
        assertNeverStarted(run, since);
    }

    @Test
    void aRegistrationThatIsNotAnsweredInTimeFailsTheRunAndItsContainerNeverStarts() {
        UUID company = UUID.randomUUID();
        registrations.hang(company);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = Runs.docker(company, Map.of("image", image, "network", NETWORK,
                "command", sh("echo should never run")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("could not register the sandbox with egress-service: "
                + registrationsUrl() + " did not answer within 2 s; the container was not started");
        assertNeverStarted(run, since);
    }

    // --- isolation ------------------------------------------------------------------------------------------

    @Test
    void fromTheEgressNetworkNothingElseIsReachableByAddress() {
        String target = Engine.startListener(FOREIGN_NETWORK, EgressTestResource.TEST_LABEL, "hello-from-target");
        String probe = "nc -w 2 " + target + " 8080 </dev/null; echo exit $?";
        // the control: from a plain bridge network the target answers, so a refusal below is the network's doing
        // (a container of the test's own: agents may not join a network that is not internal)
        assertThat(Engine.probe(FOREIGN_NETWORK, EgressTestResource.TEST_LABEL, probe))
                .contains("hello-from-target", "exit 0");

        // an internal network keeps a default route to the gateway; the engine drops what would leave the subnet
        RunRequested attack = Runs.docker(COMPANY, Map.of("image", image, "network", NETWORK,
                "command", sh(probe)));
        bus.request(attack);

        RunStatusChanged end = bus.awaitEnd(attack.runId());
        assertThat(end.output()).doesNotContain("hello-from-target").contains("exit 1");
    }

    @Test
    void aSandboxHasNoIpv6AddressOrRouteToAnotherSandboxOrTheHost() {
        // the egress network is created IPv4-only: registration, the resolver and the firewall know only IPv4
        assertThat(Engine.docker().inspectNetworkCmd().withNetworkId(NETWORK).exec().getEnableIPv6()).isFalse();
        RunRequested run = sandbox("echo addresses:; cat /proc/net/if_inet6; echo routes:; ip -6 route 2>&1;"
                + " echo neighbours:; ip -6 neigh 2>&1; echo end");

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).startsWith("addresses:\nroutes:\n").endsWith("end\n")
                .doesNotContain("eth0", "fe80", "via");
    }

    // --- helpers --------------------------------------------------------------------------------------------

    private RunRequested sandbox(String script) {
        return Runs.docker(COMPANY, Map.of("image", image, "network", NETWORK, "command", sh(script)));
    }

    private static String addressOf(InspectContainerResponse container) {
        ContainerNetwork network = container.getNetworkSettings().getNetworks().get(NETWORK);
        assertThat(network).as("attached to " + NETWORK).isNotNull();
        return network.getIpAddress();
    }

    private static void assertPoolAddress(String ip) {
        Cidr subnet = Cidr.ipv4Subnet(SUBNET);
        assertThat(subnet.isHost(Cidr.address(ip))).as(ip + " is a host address of " + SUBNET).isTrue();
        assertThat(ip).isNotEqualTo(GATEWAY);
    }

    private void assertNeverStarted(RunRequested run, long since) {
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, FAILED);
        await().atMost(Duration.ofSeconds(10)).until(() -> Engine.containerOf(run.runId()).isEmpty());
        List<Registrations.Request> puts = registrations.putsOf(run.runId());
        assertThat(puts).as("the claim of its address, before any container exists").singleElement()
                .satisfies(put -> assertThat(put.field("container_id")).isNull());
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
        assertThat(Engine.containerEvents(run.runId(), since, "start")).as("start events").isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> !addresses.reserved().contains(puts.get(0).ip()));
    }

    private static String registrationsUrl() {
        return ConfigProvider.getConfig().getValue(EgressTestResource.STAND_IN_KEY, String.class);
    }
}
