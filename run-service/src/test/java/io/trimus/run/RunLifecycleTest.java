package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RunLifecycleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    private static String[] companyWithAgent() {
        String company = Api.createCompany("Umbrella " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest",
                "command", List.of("echo", "hello"), "pids_limit", 40));
        return new String[]{company, agent};
    }

    @Test
    void acceptedRunIsQueuedAndItsRequestIsPublishedAsACloudEvent() throws Exception {
        String[] ids = companyWithAgent();
        var response = given().contentType(ContentType.JSON)
                .body(Map.of("issue", Map.of("id", "TRI-1", "title", "Fix it", "body", "Please"), "input", "go"))
                .post("/api/companies/{c}/agents/{a}/runs", ids[0], ids[1])
                .then().statusCode(202).body("status", equalTo("QUEUED")).extract();
        String run = response.path("id");
        assertThat(response.header("Location")).endsWith("/api/companies/" + ids[0] + "/runs/" + run);

        ConsumerRecord<String, String> record = kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        JsonNode event = JSON.readTree(record.value());
        assertThat(KafkaTopics.header(record, "ce_type")).isEqualTo("io.trimus.run.requested.v1");
        assertThat(KafkaTopics.header(record, "ce_id")).isEqualTo(event.get("id").asText());
        assertThat(KafkaTopics.header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(event.get("run_id").asText()).isEqualTo(run);
        assertThat(event.get("company_id").asText()).isEqualTo(ids[0]);
        assertThat(event.get("adapter_type").asText()).isEqualTo("docker");
        assertThat(event.get("adapter_config").get("pids_limit").asInt()).isEqualTo(40);
        assertThat(event.get("issue").get("title").asText()).isEqualTo("Fix it");
        assertThat(event.get("input").asText()).isEqualTo("go");

        Api.getRun(ids[0], run).statusCode(200)
                .body("agent_id", equalTo(ids[1]))
                .body("adapter_type", equalTo("docker"))
                .body("queued_at", notNullValue())
                .body("finished_at", nullValue());
    }

    @Test
    void statusEventsAdvanceTheRunAndLateOrDuplicateOnesChangeNothing() {
        String[] ids = companyWithAgent();
        String run = Api.startRun(ids[0], ids[1], Map.of());
        UUID runningId = UUID.randomUUID();
        kafka.produce(Topics.RUN_STATUS, run, status(runningId, run, ids, "RUNNING", null, null));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], run).equals("RUNNING"));

        // same event id again, now claiming success: a duplicate, ignored
        kafka.produce(Topics.RUN_STATUS, run, status(runningId, run, ids, "SUCCEEDED", 0, "dup"));
        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, ids, "FAILED", 3, "boom\n"));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], run).equals("FAILED"));
        Api.getRun(ids[0], run).body("exit_code", equalTo(3)).body("output", equalTo("boom\n"))
                .body("started_at", notNullValue()).body("finished_at", notNullValue());

        // late events after the end: RUNNING and another terminal state never move a finished run
        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, ids, "RUNNING", null, null));
        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, ids, "SUCCEEDED", 0, "late"));
        String marker = Api.startRun(ids[0], ids[1], Map.of());
        kafka.produce(Topics.RUN_STATUS, marker, status(UUID.randomUUID(), marker, ids, "RUNNING", null, null));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], marker).equals("RUNNING"));
        Api.getRun(ids[0], run).body("status", equalTo("FAILED")).body("exit_code", equalTo(3));
    }

    @Test
    void garbageOnTheStatusTopicDoesNotStopTheConsumer() {
        String[] ids = companyWithAgent();
        String run = Api.startRun(ids[0], ids[1], Map.of());
        kafka.produce(Topics.RUN_STATUS, run, "{not json");
        kafka.produce(Topics.RUN_STATUS, run, "{\"status\": \"EXPLODED\"}");
        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, ids, "SUCCEEDED", 0, "fine"));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], run).equals("SUCCEEDED"));
    }

    @Test
    void statusForAnotherCompanysRunIsIgnored() {
        String[] ids = companyWithAgent();
        String[] other = companyWithAgent();
        String run = Api.startRun(ids[0], ids[1], Map.of());
        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, other, "SUCCEEDED", 0, "forged"));
        String marker = Api.startRun(ids[0], ids[1], Map.of());
        kafka.produce(Topics.RUN_STATUS, marker, status(UUID.randomUUID(), marker, ids, "RUNNING", null, null));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], marker).equals("RUNNING"));
        assertThat(Api.runStatus(ids[0], run)).isIn("QUEUED", "DISPATCHED");
    }

    @Test
    void runsAreListedNewestFirstAndFilteredByStatus() {
        String[] ids = companyWithAgent();
        String first = Api.startRun(ids[0], ids[1], Map.of());
        String second = Api.startRun(ids[0], ids[1], Map.of());
        String third = Api.startRun(ids[0], ids[1], Map.of());
        kafka.produce(Topics.RUN_STATUS, second, status(UUID.randomUUID(), second, ids, "SUCCEEDED", 0, "ok"));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], second).equals("SUCCEEDED"));

        given().get("/api/companies/{c}/runs", ids[0]).then().statusCode(200)
                .body("id", equalTo(List.of(third, second, first)));
        given().get("/api/companies/{c}/runs?limit=2", ids[0]).then().statusCode(200)
                .body("id", equalTo(List.of(third, second)));
        given().get("/api/companies/{c}/runs?status=succeeded", ids[0]).then().statusCode(200)
                .body("id", equalTo(List.of(second)));
        assertInvalidField(given().get("/api/companies/{c}/runs?status=DONE", ids[0]).then(), "status");
        assertInvalidField(given().get("/api/companies/{c}/runs?limit=0", ids[0]).then(), "limit");
        assertInvalidField(given().get("/api/companies/{c}/runs?limit=abc", ids[0]).then(), "limit");
    }

    @Test
    void runOfAnotherCompanysAgentIsNotFoundAndNothingIsStored() {
        String[] ids = companyWithAgent();
        String[] other = companyWithAgent();
        assertProblem(given().contentType(ContentType.JSON).body(Map.of())
                .post("/api/companies/{c}/agents/{a}/runs", other[0], ids[1]).then(), 404);
        given().get("/api/companies/{c}/runs", other[0]).then().body("$", hasSize(0));
        assertProblem(Api.getRun(other[0], UUID.randomUUID().toString()), 404);
    }

    @Test
    void oversizedInputIsRefusedAndNothingIsStored() {
        String[] ids = companyWithAgent();
        assertInvalidField(given().contentType(ContentType.JSON).body(Map.of("input", "x".repeat(70_000)))
                .post("/api/companies/{c}/agents/{a}/runs", ids[0], ids[1]).then(), "input");
        assertInvalidField(given().contentType(ContentType.JSON).body(Map.of("issue", Map.of("ref", "x")))
                .post("/api/companies/{c}/agents/{a}/runs", ids[0], ids[1]).then(), "issue.ref");
        given().get("/api/companies/{c}/runs", ids[0]).then().body("$", hasSize(0));
    }

    @Test
    void cancellingADispatchedRunAsksTheAdapterAndAFinishedRunCannotBeCancelled() {
        String[] ids = companyWithAgent();
        String run = Api.startRun(ids[0], ids[1], Map.of());
        kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, ids, "RUNNING", null, null));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], run).equals("RUNNING"));

        given().post("/api/companies/{c}/runs/{r}/cancel", ids[0], run).then().statusCode(202)
                .body("id", equalTo(run));
        ConsumerRecord<String, String> cancel = kafka.awaitRecord(Topics.RUN_CANCEL, run);
        assertThat(KafkaTopics.header(cancel, "ce_type")).isEqualTo("io.trimus.run.cancel.v1");

        kafka.produce(Topics.RUN_STATUS, run, status(UUID.randomUUID(), run, ids, "CANCELLED", 137, "partial"));
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(ids[0], run).equals("CANCELLED"));
        assertProblem(given().post("/api/companies/{c}/runs/{r}/cancel", ids[0], run).then(), 409)
                .body("detail", containsString("already finished"));
    }

    private static String status(UUID eventId, String run, String[] ids, String status, Integer exitCode, String output) {
        var node = JSON.createObjectNode()
                .put("id", eventId.toString()).put("run_id", run).put("company_id", ids[0]).put("agent_id", ids[1])
                .put("status", status).put("occurred_at", Instant.now().toString());
        if (exitCode != null) {
            node.put("exit_code", exitCode);
        }
        if (output != null) {
            node.put("output", output);
        }
        return node.toString();
    }
}
