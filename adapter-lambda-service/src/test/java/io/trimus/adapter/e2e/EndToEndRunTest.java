package io.trimus.adapter.e2e;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.InfraControl;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * The whole path: API → PostgreSQL → outbox → Kafka → adapter → a real hardened container → status → API.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class EndToEndRunTest {
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);
    private static RunServiceApi api;
    private static String image;
    private static String company;

    @BeforeAll
    static void startRunService() {
        image = TestImages.busybox();
        api = RunServiceApi.shared();
        company = api.createCompany("E2E " + UUID.randomUUID());
    }

    private String agent(String script, Map<String, Object> extra) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of("image", image,
                "command", List.of("/bin/sh", "-c", script)));
        config.putAll(extra);
        return api.createDockerAgent(company, config);
    }

    @Test
    void aRunSucceedsWithItsOutputAndContext() {
        String agent = agent("echo \"hello $TRIMUS_ISSUE_TITLE run=$TRIMUS_RUN_ID input=$TRIMUS_INPUT\"", Map.of());
        String run = api.startRun(company, agent,
                Map.of("issue", Map.of("id", "T-1", "title", "world"), "input", "42"));
        api.awaitStatus(company, run, "SUCCEEDED", RUN_TIMEOUT)
                .body("exit_code", equalTo(0))
                .body("output", containsString("hello world run=" + run + " input=42"))
                .body("adapter_type", equalTo("docker"))
                .body("started_at", notNullValue())
                .body("finished_at", notNullValue());
        // the final status is reported first, then the container is removed (DockerContainerRunner's order)
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Containers.findByLabel(DockerClients.local(), "trimus.run_id", run).isEmpty());
    }

    @Test
    void aNonZeroExitFailsWithTheExitCode() {
        String run = api.startRun(company, agent("echo about to fail; exit 3", Map.of()), Map.of());
        api.awaitStatus(company, run, "FAILED", RUN_TIMEOUT)
                .body("exit_code", equalTo(3))
                .body("output", containsString("about to fail"))
                .body("error", containsString("3"));
    }

    @Test
    void aRunPastItsTimeoutIsKilledAndKeepsItsOutput() {
        String run = api.startRun(company, agent("echo before the long sleep; sleep 300", Map.of("timeout_sec", 10)),
                Map.of());
        api.awaitStatus(company, run, "TIMED_OUT", RUN_TIMEOUT)
                .body("output", containsString("before the long sleep"));
        // the final status is reported first, then the container is removed (DockerContainerRunner's order)
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Containers.findByLabel(DockerClients.local(), "trimus.run_id", run).isEmpty());
    }

    @Test
    void cancellingARunningRunKillsItsContainer() {
        String run = api.startRun(company, agent("echo started; sleep 300", Map.of()), Map.of());
        api.awaitStatus(company, run, "RUNNING", RUN_TIMEOUT);
        api.cancel(company, run).statusCode(202);
        api.awaitStatus(company, run, "CANCELLED", RUN_TIMEOUT);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Containers.findByLabel(DockerClients.local(), "trimus.run_id", run).isEmpty());
    }

    @Test
    void aMissingImageFailsWithAClearReason() {
        String agent = api.createDockerAgent(company, Map.of("image", "trimus-test/does-not-exist:1"));
        String run = api.startRun(company, agent, Map.of());
        api.awaitStatus(company, run, "FAILED", RUN_TIMEOUT)
                .body("error", containsString("trimus-test/does-not-exist:1"))
                .body("error", containsString("not found"));
    }

    @Test
    void aRunAcceptedWhileKafkaIsDownSucceedsOnceItIsBack() {
        String agent = agent("echo survived the outage", Map.of());
        InfraControl infra = InfraControl.fromConfig();
        String run;
        infra.stopKafka();
        try {
            run = api.startRun(company, agent, Map.of());
            assertThat(api.status(company, run)).isEqualTo("QUEUED");
        } finally {
            infra.startKafka();
        }
        api.awaitStatus(company, run, "SUCCEEDED", Duration.ofSeconds(120))
                .body("output", containsString("survived the outage"));
    }
}
