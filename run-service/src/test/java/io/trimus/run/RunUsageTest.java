package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * Issue 30: an agent CLI's run keeps its answer as output, the tail of what it printed as raw_output (redacted like
 * output) and the usage its CLI reported, as the adapter reports them on trimus.run.status through real Kafka; a late
 * event changes none of it; and GET /api/runs/usage sums tokens and cost per company and agent over a period in
 * PostgreSQL, for a company's own members only.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RunUsageTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    private record Started(String company, String agent, String run) {
    }

    private static Started run(String company, String agent) {
        return new Started(company, agent, Api.startRun(company, agent, Map.of()));
    }

    private static String agent(String company) {
        return Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest"));
    }

    private static ObjectNode status(Started s, String status) {
        return JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", s.run).put("company_id", s.company)
                .put("agent_id", s.agent).put("status", status).put("occurred_at", Instant.now().toString());
    }

    /** A terminal event as the adapter sends it for an agent CLI: answer, raw stream and usage. */
    private static ObjectNode cliResult(Started s, String answer, String raw, Map<String, Object> usage) {
        ObjectNode event = status(s, "SUCCEEDED").put("exit_code", 0).put("output", answer).put("raw_output", raw);
        event.set("usage", JSON.valueToTree(usage));
        return event;
    }

    private static void publish(Started s, ObjectNode event) {
        kafka.produce(Topics.RUN_STATUS, s.run, event.toString());
    }

    private static void finish(Started s, ObjectNode event) {
        publish(s, event);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> Api.runStatus(s.company, s.run).equals(event.get("status").asText()));
    }

    private static ValidatableResponse usage(Map<String, String> query) {
        return given().queryParams(query).get("/api/runs/usage").then();
    }

    @Test
    void theRunShowsTheAnswerTheRawStreamAndTheUsageAndALateEventChangesNone() {
        String company = Api.createCompany("Usage " + UUID.randomUUID());
        Started s = run(company, agent(company));
        String raw = "{\"type\":\"result\",\"result\":\"The answer is 42.\",\"usage\":{\"input_tokens\":1200}}\n";
        ObjectNode first = cliResult(s, "The answer is 42.", raw, Map.of("input_tokens", 1200, "output_tokens", 345,
                "cache_read_tokens", 800, "cache_write_tokens", 100, "cost_usd", 0.0123456,
                "model", "claude-sonnet-4-5", "api_duration_ms", 2300, "turns", 3));
        finish(s, first);

        Api.getRun(s.company, s.run).statusCode(200)
                .body("output", equalTo("The answer is 42.")).body("raw_output", equalTo(raw))
                .body("usage.input_tokens", equalTo(1200)).body("usage.output_tokens", equalTo(345))
                .body("usage.cache_read_tokens", equalTo(800)).body("usage.cache_write_tokens", equalTo(100))
                .body("usage.cost_usd", equalTo(0.012346f)).body("usage.model", equalTo("claude-sonnet-4-5"))
                .body("usage.api_duration_ms", equalTo(2300)).body("usage.turns", equalTo(3))
                .body("usage", not(hasKey("reasoning_tokens")));

        // the same event again (redelivered), then a late one with other figures: the run keeps what it has
        publish(s, first);
        ObjectNode late = cliResult(s, "another answer", "another stream", Map.of("input_tokens", 1,
                "cost_usd", 99, "model", "other-model"));
        late.put("status", "FAILED").put("exit_code", 1);
        publish(s, late);
        await().atMost(Duration.ofSeconds(60)).until(() -> Db.texts(
                "select count(*)::text from run.processed_event where id = ?",
                UUID.fromString(late.get("id").asText())).equals(List.of("1")));
        Api.getRun(s.company, s.run).statusCode(200).body("status", equalTo("SUCCEEDED"))
                .body("output", equalTo("The answer is 42.")).body("raw_output", equalTo(raw))
                .body("usage.input_tokens", equalTo(1200)).body("usage.cost_usd", equalTo(0.012346f))
                .body("usage.model", equalTo("claude-sonnet-4-5"));
    }

    @Test
    void aRunWhoseCliReportedNothingHasNoUsageNorRawOutput() {
        String company = Api.createCompany("No usage " + UUID.randomUUID());
        Started plain = run(company, agent(company));
        finish(plain, status(plain, "SUCCEEDED").put("exit_code", 0).put("output", "done\n"));
        Api.getRun(company, plain.run).statusCode(200).body("output", equalTo("done\n"))
                .body("raw_output", nullValue()).body("usage", nullValue());

        Started empty = run(company, plain.agent);
        finish(empty, cliResult(empty, "answer", "stream", Map.of()));
        Api.getRun(company, empty.run).statusCode(200).body("raw_output", equalTo("stream"))
                .body("usage", nullValue());
        assertThat(Db.texts("select concat_ws(',', input_tokens, output_tokens, cost_usd, model, turns)"
                + " from run.run where id = ?", UUID.fromString(empty.run))).containsExactly("");
    }

    @Test
    void aSecretOfTheCompanyIsMaskedInTheRawOutput() {
        String company = Api.createCompany("Leaky stream " + UUID.randomUUID());
        Started s = run(company, agent(company));
        String key = "sk-ant-api03-" + UUID.randomUUID().toString().replace("-", "");
        Api.setSecret(company, "ANTHROPIC_API_KEY", key);
        // a CLI that gave no answer: the raw stream alone must still be masked
        ObjectNode event = cliResult(s, null, "{\"debug\":\"using " + key + "\"}\n", Map.of("output_tokens", 5));
        event.remove("output");
        finish(s, event);

        Api.getRun(company, s.run).statusCode(200)
                .body("raw_output", equalTo("{\"debug\":\"using [REDACTED]\"}\n"))
                .body(not(containsString(key)));
        assertThat(Db.texts("select raw_output from run.run where id = ?", UUID.fromString(s.run)))
                .singleElement().asString().doesNotContain(key).contains("[REDACTED]");
    }

    @Test
    void theSummarySumsPerCompanyAndAgentOverThePeriod() {
        String a = Api.createCompany("Sum A " + UUID.randomUUID());
        String b = Api.createCompany("Sum B " + UUID.randomUUID());
        String a1 = agent(a);
        String a2 = agent(a);
        String b1 = agent(b);
        Started r1 = run(a, a1);
        finish(r1, cliResult(r1, "x", "x", Map.of("input_tokens", 100, "output_tokens", 10, "cost_usd", 0.5,
                "cache_read_tokens", 7)));
        Started r2 = run(a, a1);
        finish(r2, cliResult(r2, "x", "x", Map.of("input_tokens", 200, "output_tokens", 20, "cost_usd", 0.25)));
        Started r3 = run(a, a1); // no usage: counted as a run, not in the sums
        finish(r3, status(r3, "FAILED").put("exit_code", 1));
        Started r4 = run(a, a2); // tokens, but its CLI states no cost
        finish(r4, cliResult(r4, "x", "x", Map.of("input_tokens", 1000, "output_tokens", 1, "reasoning_tokens", 4)));
        Started old = run(a, a2); // finished 40 days ago: outside the default period
        finish(old, cliResult(old, "x", "x", Map.of("input_tokens", 5000, "cost_usd", 3)));
        Instant fortyDaysAgo = Instant.now().minus(40, ChronoUnit.DAYS);
        assertThat(Db.update("update run.run set finished_at = ? where id = ?", Timestamp.from(fortyDaysAgo),
                UUID.fromString(old.run))).isEqualTo(1);
        Started other = run(b, b1);
        finish(other, cliResult(other, "x", "x", Map.of("input_tokens", 7, "output_tokens", 3, "cost_usd", 1.5)));
        Api.startRun(a, a1, Map.of()); // still queued: not finished in the period

        usage(Map.of("company_id", a)).statusCode(200)
                .body("company_id", equalTo(a)).body("by_agent.size()", equalTo(2))
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.runs", equalTo(3))
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.runs_with_usage", equalTo(2))
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.input_tokens", equalTo(300))
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.output_tokens", equalTo(30))
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.cache_read_tokens", equalTo(7))
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.reasoning_tokens", nullValue())
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.cost_usd", equalTo(0.75f))
                .body("by_agent.find { it.agent_id == '" + a2 + "' }.runs", equalTo(1))
                .body("by_agent.find { it.agent_id == '" + a2 + "' }.input_tokens", equalTo(1000))
                .body("by_agent.find { it.agent_id == '" + a2 + "' }.reasoning_tokens", equalTo(4))
                .body("by_agent.find { it.agent_id == '" + a2 + "' }.cost_usd", nullValue())
                .body("totals.runs", equalTo(4)).body("totals.runs_with_usage", equalTo(3))
                .body("totals.input_tokens", equalTo(1300)).body("totals.output_tokens", equalTo(31))
                .body("totals.cost_usd", equalTo(0.75f)).body("truncated", equalTo(false));

        // the period: the old run alone, then one agent of the period that holds it
        String since = fortyDaysAgo.minus(1, ChronoUnit.DAYS).toString();
        String until = fortyDaysAgo.plus(1, ChronoUnit.DAYS).toString();
        usage(Map.of("company_id", a, "since", since, "until", until)).statusCode(200)
                .body("since", equalTo(since)).body("until", equalTo(until))
                .body("by_agent.size()", equalTo(1)).body("by_agent[0].agent_id", equalTo(a2))
                .body("totals.input_tokens", equalTo(5000)).body("totals.cost_usd", equalTo(3));
        usage(Map.of("company_id", a, "since", since)).statusCode(200)
                .body("totals.runs", equalTo(5)).body("totals.input_tokens", equalTo(6300));
        usage(Map.of("company_id", a, "agent_id", a1)).statusCode(200)
                .body("by_agent.size()", equalTo(1)).body("totals.input_tokens", equalTo(300));

        // the other company's figures are its own; an operator without company_id sees both
        usage(Map.of("company_id", b)).statusCode(200).body("by_agent.size()", equalTo(1))
                .body("by_agent[0].agent_id", equalTo(b1)).body("totals.input_tokens", equalTo(7))
                .body("totals.cost_usd", equalTo(1.5f));
        usage(Map.of()).statusCode(200).body("company_id", nullValue())
                .body("by_agent.find { it.agent_id == '" + a1 + "' }.company_id", equalTo(a))
                .body("by_agent.find { it.agent_id == '" + b1 + "' }.company_id", equalTo(b));
    }

    @Test
    void aMemberSeesOnlyItsOwnCompanysFiguresAsWithTheRunSummary() {
        String a = Api.createCompany("Own A " + UUID.randomUUID());
        String b = Api.createCompany("Own B " + UUID.randomUUID());
        Started theirs = run(b, agent(b));
        finish(theirs, cliResult(theirs, "x", "x", Map.of("input_tokens", 424242, "cost_usd", 42)));
        String member = AccessTableTest.bearer(AccessTableTest.token(a, "member"));

        given().header("Authorization", member).queryParam("company_id", a).get("/api/runs/usage").then()
                .statusCode(200).body("totals.runs", equalTo(0)).body("totals.input_tokens", nullValue());
        for (String path : List.of("/api/runs/usage", "/api/runs/summary")) {
            assertProblem(given().header("Authorization", member).queryParam("company_id", b).get(path).then(), 404)
                    .body(not(containsString("424242")));
            assertProblem(given().header("Authorization", member).get(path).then(), 400)
                    .body("detail", containsString("company_id"));
        }
        // naming the other company's agent under its own company finds nothing of it
        given().header("Authorization", member).queryParams("company_id", a, "agent_id", theirs.agent)
                .get("/api/runs/usage").then().statusCode(200).body("by_agent.size()", equalTo(0))
                .body("totals.runs", equalTo(0)).body(not(containsString("424242")));
    }

    @Test
    void everyQueryParameterOfTheSummaryIsValidated() {
        String company = Api.createCompany("Validated " + UUID.randomUUID());
        assertInvalidField(usage(Map.of("company_id", "nope")), "company_id");
        assertInvalidField(usage(Map.of("agent_id", "not-a-uuid")), "agent_id");
        assertInvalidField(usage(Map.of("agent_id", "1-2-3-4-5")), "agent_id");
        for (String bad : List.of("yesterday", "2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00",
                "+10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "x".repeat(500))) {
            assertInvalidField(usage(Map.of("company_id", company, "since", bad)), "since");
            assertInvalidField(usage(Map.of("company_id", company, "until", bad)), "until");
        }
        Instant now = Instant.now();
        assertInvalidField(usage(Map.of("company_id", company, "since", now.toString(),
                "until", now.minusSeconds(1).toString())), "until");
        assertInvalidField(usage(Map.of("company_id", company, "since", now.toString(), "until", now.toString())),
                "until");
        assertInvalidField(usage(Map.of("company_id", company, "since", now.plusSeconds(3600).toString())), "since");
        assertInvalidField(usage(Map.of("company_id", company, "since", now.minus(367, ChronoUnit.DAYS).toString(),
                "until", now.toString())), "since");
        usage(Map.of("company_id", company, "since", now.minus(366, ChronoUnit.DAYS).toString(),
                "until", now.toString())).statusCode(200);
        usage(Map.of("company_id", company, "since", "2026-01-01T00:00:00+02:00", "until", "2026-01-31T00:00:00Z"))
                .statusCode(200).body("since", equalTo("2025-12-31T22:00:00Z"));
        assertProblem(usage(Map.of("company_id", UUID.randomUUID().toString())), 404);
    }
}
