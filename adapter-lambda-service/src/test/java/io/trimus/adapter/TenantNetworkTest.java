package io.trimus.adapter;

import com.github.dockerjava.api.model.Network;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.adapter.support.EgressTestResource.FOREIGN_NETWORK;
import static io.trimus.adapter.support.EgressTestResource.TEST_LABEL;
import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A docker agent's network is the operator's choice (TRIMUS_DOCKER_ALLOWED_NETWORKS), and even a listed network is
 * joined only when it is safe: internal, inter-container traffic off, no container on it but Trimus runs. The run
 * requests go straight to the adapter, bypassing run-service's check at creation, as a stored agent of yesterday's
 * rules would. Every refusal is REJECTED before any container exists, in one sentence that does not tell whether the
 * network exists. The networks named here are on the test profile's list (application.properties).
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class TenantNetworkTest {

    private static final UUID COMPANY = UUID.randomUUID();
    /** Listed, internal, inter-container traffic off, nothing on it: agents may join it. */
    private static final String SAFE = "trimus-test-tenant";
    /** Listed, internal, but containers on it can reach each other. */
    private static final String ICC_ON = "trimus-test-tenant-icc";
    /** Listed, internal, icc off, but a service that is not a Trimus run sits on it (as the stack's own would). */
    private static final String SHARED = "trimus-test-tenant-shared";
    /** Listed, but no such network exists. */
    private static final String MISSING = "trimus-test-listed-missing";

    private final RunBus bus = RunBus.get();
    private static String image;

    @BeforeAll
    static void networks() {
        image = Engine.busybox();
        for (String name : List.of(SAFE, ICC_ON, SHARED, MISSING)) {
            EgressTestResource.removeNetwork(Engine.docker(), name);
        }
        create(SAFE, true);
        create(ICC_ON, false);
        create(SHARED, true);
        Engine.startListener(SHARED, TEST_LABEL, "a service that is not a run");
    }

    @AfterAll
    static void removeNetworks() {
        Engine.removeCompanyContainers(COMPANY);
        for (var c : Engine.docker().listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(TEST_LABEL, "true")).withNetworkFilter(List.of(SHARED)).exec()) {
            Engine.docker().removeContainerCmd(c.getId()).withForce(true).exec();
        }
        for (String name : List.of(SAFE, ICC_ON, SHARED)) {
            EgressTestResource.removeNetwork(Engine.docker(), name);
        }
    }

    private static void create(String name, boolean iccOff) {
        Engine.docker().createNetworkCmd().withName(name).withDriver("bridge").withCheckDuplicate(true)
                .withInternal(true)
                .withOptions(iccOff ? Map.of("com.docker.network.bridge.enable_icc", "false") : Map.of())
                .withLabels(Map.of(TEST_LABEL, "true"))
                .exec();
    }

    private RunStatusChanged runOn(String network) {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "network", network,
                "command", sh("echo joined; ip -o -4 addr show | grep -v ' lo '")));
        bus.request(run);
        return bus.awaitEnd(run.runId());
    }

    private static String refusal(String network) {
        return "adapter_config.network network " + network + " is not available to agents on this Trimus (allowed:"
                + " none, " + EgressTestResource.NETWORK + ", trimus-test-foreign, trimus-test-tenant,"
                + " trimus-test-tenant-icc, trimus-test-tenant-shared, trimus-test-listed-missing; the operator sets"
                + " TRIMUS_DOCKER_ALLOWED_NETWORKS)";
    }

    @Test
    void aListedInternalNetworkWithNothingElseOnItIsJoined() {
        RunStatusChanged end = runOn(SAFE);

        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).startsWith("joined\n").contains("eth0");
    }

    @Test
    void listedUnsafeNetworksAndAMissingOneAreRejectedInTheSameSentenceAndNothingStarts() {
        // not internal; containers reach each other; a non-run container on it; does not exist; host's; Docker's default
        for (String network : List.of(FOREIGN_NETWORK, ICC_ON, SHARED, MISSING, "host", "bridge")) {
            long since = Instant.now().getEpochSecond() - 1;
            RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "network", network,
                    "command", sh("echo should never run")));
            bus.request(run);

            RunStatusChanged end = bus.awaitEnd(run.runId());

            assertThat(end.status()).as(network).isEqualTo(REJECTED);
            assertThat(end.error()).as(network).isEqualTo(refusal(network));
            assertThat(Engine.containerEvents(run.runId(), since, "create")).as(network).isZero();
        }
    }

    @Test
    void anUnlistedNetworkIsRejectedInTheSameWords() {
        RunStatusChanged end = runOn("trimus-test-unlisted");

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).isEqualTo(refusal("trimus-test-unlisted"));
    }
}
