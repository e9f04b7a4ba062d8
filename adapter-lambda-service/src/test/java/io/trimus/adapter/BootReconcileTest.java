package io.trimus.adapter;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.CanaryRequested;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.adapter.support.Runs.sh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;

/** What a previous adapter process left behind is ended at boot; readiness follows the engine. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class BootReconcileTest {

    private static final UUID COMPANY = UUID.randomUUID();

    @Inject
    RunDispatcher dispatcher;

    private final RunBus bus = RunBus.get();

    @AfterEach
    void removeLeftovers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    @Test
    void aContainerLeftByAPreviousProcessIsRemovedAndItsRunFailed() {
        String image = Engine.busybox();
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("sleep 300")));
        // what a killed adapter process leaves: a labelled container nobody watches
        String leftover = Engine.docker().createContainerCmd(image).withName("trimus-run-" + run.runId())
                .withLabels(Map.of("trimus.company_id", COMPANY.toString(), "trimus.agent_id",
                        run.agentId().toString(), "trimus.run_id", run.runId().toString()))
                .withCmd("sleep", "300").exec().getId();
        Engine.docker().startContainerCmd(leftover).exec();

        dispatcher.reconcile(); // what the service does at boot

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(RunState.FAILED);
        assertThat(end.error()).isEqualTo("adapter restarted while the run was in progress");
        assertThat(end.companyId()).isEqualTo(COMPANY);
        assertThat(end.agentId()).isEqualTo(run.agentId());
        assertThat(Engine.containerOf(run.runId())).isEmpty();

        // its request, redelivered after the restart, does not start it again
        bus.request(run);
        RunRequested marker = Runs.docker(COMPANY, Map.of("image", image, "command", sh("true")));
        bus.request(marker);
        bus.awaitEnd(marker.runId());
        assertThat(bus.states(run.runId())).containsExactly(RunState.FAILED);
    }

    @Test
    void aCanarysProbeContainerLeftByAPreviousProcessIsRemovedButNeverReportedAsARun() {
        String image = Engine.busybox();
        UUID canary = UUID.randomUUID();
        String leftover = Engine.docker().createContainerCmd(image).withName("trimus-canary-" + canary)
                .withLabels(Map.of("trimus.company_id", COMPANY.toString(), "trimus.agent_id",
                        CanaryRequested.PROBE_AGENT_ID.toString(), "trimus.run_id", canary.toString()))
                .withCmd("sleep", "300").exec().getId();
        Engine.docker().startContainerCmd(leftover).exec();

        dispatcher.reconcile();

        assertThat(Engine.containerOf(canary)).isEmpty();
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> bus.states(canary).isEmpty());
    }

    @Test
    void aContainerOfAnotherAdapterInstanceOnTheSameEngineIsLeftRunning() {
        String image = Engine.busybox();
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("sleep 300")));
        String theirs = Engine.docker().createContainerCmd(image).withName("trimus-run-" + run.runId())
                .withLabels(Map.of("trimus.company_id", COMPANY.toString(), "trimus.agent_id",
                        run.agentId().toString(), "trimus.run_id", run.runId().toString(),
                        "trimus.adapter_instance", "replica-2"))
                .withCmd("sleep", "300").exec().getId();
        Engine.docker().startContainerCmd(theirs).exec();

        dispatcher.reconcile();

        assertThat(Engine.docker().inspectContainerCmd(theirs).exec().getState().getRunning()).isTrue();
        assertThat(bus.states(run.runId())).isEmpty();
    }

    @Test
    void readinessIncludesTheDockerEngine() {
        // the egress network is ensured on a worker thread after boot: ready once that is done too
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("checks.name", hasItem("docker-engine"))
                .body("checks.find { it.name == 'docker-engine' }.status", org.hamcrest.Matchers.is("UP")));
    }
}
