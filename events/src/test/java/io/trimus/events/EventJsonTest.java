package io.trimus.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The records survive the wire unchanged, with snake_case names and instants as ISO-8601 text. */
class EventJsonTest {

    @Test
    void aRunRequestRoundTrips() throws JsonProcessingException {
        RunRequested event = Fixtures.runRequested();

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.MAPPER.readValue(json, RunRequested.class)).isEqualTo(event);
        assertThat(Json.parse(json).fieldNames()).toIterable().containsExactlyInAnyOrder("id", "run_id",
                "company_id", "agent_id", "adapter_type", "adapter_config", "issue", "input", "requested_at", "secrets",
                "issuer_mac", "masked");
        assertThat(Json.parse(json).get("issue").fieldNames()).toIterable()
                .containsExactlyInAnyOrder("id", "title", "body");
        assertThat(Json.parse(json).get("requested_at").asText()).isEqualTo("2026-01-15T09:30:00.123456789Z");
        assertThat(Json.parse(json).get("run_id").asText()).isEqualTo(event.runId().toString());
    }

    @Test
    void theAdapterConfigTravelsAsJsonNotAsAString() throws JsonProcessingException {
        JsonNode json = Json.parse(Json.MAPPER.writeValueAsString(Fixtures.runRequested()));

        assertThat(json.get("adapter_config").isObject()).isTrue();
        assertThat(json.at("/adapter_config/command/2").asText()).isEqualTo("echo hi");
    }

    @Test
    void aCliResultRoundTripsWithItsUsage() throws JsonProcessingException {
        RunStatusChanged event = Fixtures.cliStatus();

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.MAPPER.readValue(json, RunStatusChanged.class)).isEqualTo(event);
        assertThat(Json.parse(json).get("output").asText()).isEqualTo("Done.");
        assertThat(Json.parse(json).at("/usage/input_tokens").asLong()).isEqualTo(1200);
        assertThat(Json.parse(json).at("/usage/cost_usd").decimalValue()).isEqualByComparingTo("0.0123");
        assertThat(Json.parse(json).at("/usage/model").asText()).isEqualTo("claude-sonnet-4-5");
        assertThat(Json.parse(json).at("/usage").has("reasoning_tokens")).isFalse();
    }

    @Test
    void usageKeepsOnlyWhatIsPlausible() {
        RunUsage hostile = new RunUsage(-1L, Long.MAX_VALUE, 5L, null, null, new java.math.BigDecimal("-3"),
                "m\u0000odel" + "x".repeat(500), 10L, -2);

        assertThat(hostile.inputTokens()).isNull();
        assertThat(hostile.outputTokens()).isNull();
        assertThat(hostile.cacheReadTokens()).isEqualTo(5L);
        assertThat(hostile.costUsd()).isNull();
        assertThat(hostile.model()).startsWith("model").hasSize(RunUsage.MAX_MODEL);
        assertThat(hostile.turns()).isNull();
        assertThat(new RunUsage(null, null, null, null, null, new java.math.BigDecimal("0.12345678"), null, null,
                null).costUsd()).isEqualByComparingTo("0.123457");
        assertThat(RunStatusChanged.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), RunState.SUCCEEDED, 0,
                "x", null).withCliResult("x", "x", new RunUsage(null, null, null, null, null, null, " ", null, null))
                .usage()).isNull();
    }

    @Test
    void aTerminalStatusRoundTrips() throws JsonProcessingException {
        RunStatusChanged event = Fixtures.terminalStatus();

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.MAPPER.readValue(json, RunStatusChanged.class)).isEqualTo(event);
        assertThat(Json.parse(json).fieldNames()).toIterable().containsExactlyInAnyOrder("id", "run_id",
                "company_id", "agent_id", "status", "exit_code", "output", "error", "occurred_at", "notes", "reported_by",
                "peer_task_id");
        assertThat(Json.parse(json).get("status").asText()).isEqualTo("FAILED");
        assertThat(Json.parse(json).get("occurred_at").isTextual()).isTrue();
    }

    @Test
    void aProgressStatusLeavesTheOutcomeFieldsOut() throws JsonProcessingException {
        RunStatusChanged event = RunStatusChanged.progress(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                RunState.DISPATCHED);

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.parse(json).fieldNames()).toIterable().containsExactlyInAnyOrder("id", "run_id",
                "company_id", "agent_id", "status", "occurred_at");
        assertThat(Json.MAPPER.readValue(json, RunStatusChanged.class)).isEqualTo(event);
    }

    @Test
    void aCancelRequestRoundTrips() throws JsonProcessingException {
        RunCancelRequested event = Fixtures.cancel();

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.MAPPER.readValue(json, RunCancelRequested.class)).isEqualTo(event);
        assertThat(Json.parse(json).fieldNames()).toIterable()
                .containsExactlyInAnyOrder("id", "run_id", "company_id", "requested_at");
        assertThat(Json.parse(json).get("requested_at").asText()).isEqualTo("2026-01-15T09:30:00.123456789Z");
    }

    @Test
    void anEgressAnomalyRoundTrips() throws JsonProcessingException {
        EgressAnomaly event = Fixtures.egressAnomaly();

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.MAPPER.readValue(json, EgressAnomaly.class)).isEqualTo(event);
        assertThat(Json.parse(json).fieldNames()).toIterable().containsExactlyInAnyOrder("id", "company_id",
                "agent_id", "run_id", "container_id", "source_ip", "qname", "qtype", "reason", "count", "first_seen",
                "last_seen", "enforced");
        assertThat(Json.parse(json).get("count").asLong()).isEqualTo(37);
        assertThat(Json.parse(json).get("last_seen").asText()).isEqualTo("2026-01-15T09:30:09.123456789Z");
    }

    @Test
    void anAnomalyIsEnforcedUnlessItSaysOtherwiseSoEventsWrittenBeforeTheFieldReadAsEnforced()
            throws JsonProcessingException {
        EgressAnomaly event = Fixtures.egressAnomaly();
        var old = Json.tree(event);
        old.remove("enforced");

        assertThat(event.enforced()).isTrue();
        assertThat(Json.MAPPER.treeToValue(old, EgressAnomaly.class)).isEqualTo(event);
        assertThat(Json.MAPPER.treeToValue(old.put("enforced", false), EgressAnomaly.class).enforced()).isFalse();
        assertThat(Json.parse(Json.MAPPER.writeValueAsString(Fixtures.reportedAnomaly())).get("enforced").asBoolean())
                .isFalse();
    }

    @Test
    void anUnattributedAnomalyLeavesTheSandboxFieldsOut() throws JsonProcessingException {
        EgressAnomaly event = Fixtures.unattributedAnomaly();

        String json = Json.MAPPER.writeValueAsString(event);

        assertThat(Json.parse(json).fieldNames()).toIterable().containsExactlyInAnyOrder("id", "source_ip", "qname",
                "qtype", "reason", "count", "first_seen", "last_seen", "enforced");
        assertThat(Json.MAPPER.readValue(json, EgressAnomaly.class)).isEqualTo(event);
    }

    @Test
    void aConsumerWithAPlainObjectMapperIgnoresFieldsAddedByALaterProducer() throws JsonProcessingException {
        RunRequested request = Fixtures.runRequested();
        var requestJson = Json.tree(request).put("priority", "high");
        RunStatusChanged status = Fixtures.terminalStatus();
        RunCancelRequested cancel = Fixtures.cancel();

        assertThat(Json.MAPPER.treeToValue(requestJson, RunRequested.class)).isEqualTo(request);
        assertThat(Json.MAPPER.treeToValue(Json.tree(status).put("duration_ms", 3100), RunStatusChanged.class))
                .isEqualTo(status);
        assertThat(Json.MAPPER.treeToValue(Json.tree(cancel).put("reason", "user pressed stop"),
                RunCancelRequested.class)).isEqualTo(cancel);
        EgressAnomaly anomaly = Fixtures.egressAnomaly();
        assertThat(Json.MAPPER.treeToValue(Json.tree(anomaly).put("rcode", "NXDOMAIN"), EgressAnomaly.class))
                .isEqualTo(anomaly);
    }
}
