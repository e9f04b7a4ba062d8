package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

/**
 * Proves that what a run printed is stored and shown only with every secret value of its company replaced by
 * [REDACTED] (whole occurrences, and a secret cut at the start or end of the output tail), in both output and error,
 * when the adapter reports it on trimus.run.status through real Kafka; and that a status event's notes are shown on
 * the run.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RedactionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    private record Started(String company, String agent, String run) {
    }

    private static Started dockerRun(String companyName) {
        String company = Api.createCompany(companyName + " " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest",
                "command", List.of("sh", "-c", "env")));
        return new Started(company, agent, Api.startRun(company, agent, Map.of()));
    }

    /** A run.status event as the adapter service publishes it. */
    private static ObjectNode status(Started s, String status) {
        return JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", s.run).put("company_id", s.company)
                .put("agent_id", s.agent).put("status", status).put("occurred_at", Instant.now().toString());
    }

    private static void publish(Started s, ObjectNode event) {
        kafka.produce(Topics.RUN_STATUS, s.run, event.toString());
    }

    private static void awaitStatus(Started s, String status) {
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.runStatus(s.company, s.run).equals(status));
    }

    @Test
    void everySecretOfTheCompanyIsMaskedInOutputAndErrorWholeAndCutAtTheEdges() {
        Started s = dockerRun("Leaky");
        String apiKey = "sk-ant-api03-" + UUID.randomUUID().toString().replace("-", "");
        String dbPassword = "pw-" + UUID.randomUUID();
        Api.setSecret(s.company, "ANTHROPIC_API_KEY", apiKey);
        Api.setSecret(s.company, "DB_PASSWORD", dbPassword);
        // another company's secret is none of this run's business: it is neither decrypted nor masked here
        Started elsewhere = dockerRun("Bystander");
        String foreign = "foreign-" + UUID.randomUUID();
        Api.setSecret(elsewhere.company, "ANTHROPIC_API_KEY", foreign);

        // the adapter keeps the tail of the output, so the first secret may have lost its beginning
        String output = apiKey.substring(9) + "\n"
                + "ANTHROPIC_API_KEY=" + apiKey + "\n"
                + "retrying with " + apiKey + " and db " + dbPassword + "\n"
                + "echo " + foreign + "\n"
                + "last line cut: " + dbPassword.substring(0, 12);
        String error = "authentication failed for key " + apiKey;
        publish(s, status(s, "FAILED").put("exit_code", 1).put("output", output).put("error", error));
        awaitStatus(s, "FAILED");

        var run = Api.getRun(s.company, s.run).statusCode(200)
                .body("exit_code", equalTo(1))
                .body("output", equalTo("[REDACTED]\n"
                        + "ANTHROPIC_API_KEY=[REDACTED]\n"
                        + "retrying with [REDACTED] and db [REDACTED]\n"
                        + "echo " + foreign + "\n"
                        + "last line cut: [REDACTED]"))
                .body("error", equalTo("authentication failed for key [REDACTED]"))
                .extract().asString();
        assertThat(run).doesNotContain(apiKey).doesNotContain(apiKey.substring(9)).doesNotContain(dbPassword)
                .doesNotContain(dbPassword.substring(0, 12));
        given().get("/api/companies/{c}/runs", s.company).then().statusCode(200)
                .body(not(containsString(apiKey.substring(9)))).body(not(containsString(dbPassword)));
        assertThat(Db.texts("select coalesce(output, '') || coalesce(error, '') from run.run where id = ?",
                UUID.fromString(s.run))).singleElement().asString()
                .doesNotContain(apiKey.substring(9)).doesNotContain(dbPassword).contains("[REDACTED]");
    }

    @Test
    void aSecretAddedWhileTheRunWasGoingIsMaskedToo() {
        Started s = dockerRun("Late secret");
        publish(s, status(s, "RUNNING"));
        awaitStatus(s, "RUNNING");
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        Api.setSecret(s.company, "GITHUB_TOKEN", token);

        publish(s, status(s, "SUCCEEDED").put("exit_code", 0).put("output", "pushed with " + token + "\ndone\n"));
        awaitStatus(s, "SUCCEEDED");
        Api.getRun(s.company, s.run).body("output", equalTo("pushed with [REDACTED]\ndone\n"))
                .body(not(containsString(token)));
    }

    @Test
    void notesOfAStatusEventAreShownOnTheRun() {
        Started s = dockerRun("Noted");
        Api.getRun(s.company, s.run).body("notes", equalTo(List.of()));

        List<String> notes = List.of(
                "dangerously_skip_permissions dropped: TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS is on",
                "memory limit raised to the sandbox minimum of 512m");
        ObjectNode running = status(s, "RUNNING");
        running.putArray("notes").add(notes.get(0)).add(notes.get(1));
        publish(s, running);
        awaitStatus(s, "RUNNING");
        Api.getRun(s.company, s.run).body("notes", equalTo(notes)).body("started_at", org.hamcrest.Matchers.notNullValue());

        publish(s, status(s, "SUCCEEDED").put("exit_code", 0).put("output", "ok\n"));
        awaitStatus(s, "SUCCEEDED");
        Api.getRun(s.company, s.run).body("notes", equalTo(notes)).body("output", equalTo("ok\n"));
    }

    private static io.restassured.specification.RequestSpecification given() {
        return io.restassured.RestAssured.given();
    }
}
