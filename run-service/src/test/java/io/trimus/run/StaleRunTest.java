package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * No run stays in progress forever: one whose last news (RUNNING, here backdated past TRIMUS_RUN_STALE_AFTER = 10 min
 * in tests) is older than the limit ends FAILED with the reason, while a run with fresh news is left alone, and a
 * late outcome from the adapter no longer moves it.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class StaleRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    private static String[] startedRun(Instant runningAt) {
        String company = Api.createCompany("Stale " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest",
                "command", List.of("sleep", "3600")));
        String run = Api.startRun(company, agent, Map.of());
        publish(company, agent, run, "RUNNING", runningAt);
        await().atMost(Duration.ofSeconds(60)).until(() -> !Api.runStatus(company, run).equals("QUEUED"));
        return new String[]{company, agent, run};
    }

    private static void publish(String company, String agent, String run, String status, Instant at) {
        kafka.produce(Topics.RUN_STATUS, run, JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", run).put("company_id", company)
                .put("agent_id", agent).put("status", status).put("occurred_at", at.toString()).toString());
    }

    @Test
    void aRunWithoutNewsPastTheLimitEndsFailedAndALateOutcomeDoesNotMoveIt() {
        String[] stale = startedRun(Instant.now().minus(Duration.ofMinutes(11)));
        String[] fresh = startedRun(Instant.now());

        await().atMost(Duration.ofSeconds(30)).until(() -> Api.runStatus(stale[0], stale[2]).equals("FAILED"));
        Api.getRun(stale[0], stale[2]).statusCode(200)
                .body("error", equalTo("no outcome was reported for 10 min; the adapter that held the run stopped"
                        + " without reporting it"))
                .body("finished_at", startsWith(Instant.now().toString().substring(0, 10)));
        assertThat(Api.runStatus(fresh[0], fresh[2])).isEqualTo("RUNNING");

        publish(stale[0], stale[1], stale[2], "SUCCEEDED", Instant.now());
        publish(fresh[0], fresh[1], fresh[2], "SUCCEEDED", Instant.now());
        await().atMost(Duration.ofSeconds(30)).until(() -> Api.runStatus(fresh[0], fresh[2]).equals("SUCCEEDED"));
        assertThat(Api.runStatus(stale[0], stale[2])).isEqualTo("FAILED");
    }
}
