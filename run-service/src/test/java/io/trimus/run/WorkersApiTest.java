package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.trimus.events.Topics;
import io.trimus.events.WorkerHeartbeat;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** GET /api/workers lists the workers heard on trimus.worker.heartbeats (real broker), and which are live. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class WorkersApiTest {
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final KafkaTopics kafka = KafkaTopics.shared();

    @Test
    void aBeatingWorkerIsListedLiveWithItsTagsAndRuns() {
        String id = "gpu-host-" + UUID.randomUUID();
        UUID run = UUID.randomUUID();

        // the service reads beats from the moment it joined the topic on: beat until it has heard one, as a worker does
        Map<String, Object> listed = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    beat(WorkerHeartbeat.now(id, List.of("gpu", "eu"), Duration.ofSeconds(30), List.of(run)));
                    return worker(id);
                }, w -> w != null);

        assertThat(listed).containsEntry("tags", List.of("gpu", "eu")).containsEntry("live", true)
                .containsEntry("running", 1).containsEntry("heartbeat_interval_ms", 30000);
        assertThat(listed.get("last_seen")).isNotNull();
        assertThat(listed.get("last_heard_at")).isNotNull();
    }

    @Test
    void aWorkerThatStopsBeatingIsListedAsNotLiveAfterThreeMissedBeats() {
        String id = "flaky-host-" + UUID.randomUUID();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            beat(WorkerHeartbeat.now(id, List.of("cpu"), Duration.ofMillis(500), List.of()));
            return worker(id);
        }, w -> w != null);

        // silent from now on: three half-second beats missed
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> Boolean.FALSE.equals(worker(id).get("live")));
        assertThat(worker(id)).containsEntry("tags", List.of("cpu"));
    }

    private static void beat(WorkerHeartbeat beat) throws Exception {
        kafka.produce(Topics.WORKER_HEARTBEATS, beat.workerId(), JSON.writeValueAsString(beat));
    }

    private static Map<String, Object> worker(String id) {
        JsonPath body = given().when().get("/api/workers").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> workers = body.getList("$");
        return workers.stream().filter(w -> id.equals(w.get("worker_id"))).findFirst().orElse(null);
    }
}
