package io.trimus.adapter.command.output;

import io.trimus.events.OutputTail;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.RunUsage;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.secrets.Redactor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claude Code's {@code -p --output-format json} result read into the answer and usage, from the output tail as the
 * adapter captures it (stdout and stderr together, cut at the front), whatever the sandbox printed.
 */
class ClaudeOutputTest {
    private static final CliOutput CLAUDE = new CliOutput(AgentCli.CLAUDE, null);

    /** A Claude Code 2.1 success result: two models, the main one with the most output tokens. */
    static final String SUCCESS = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
            + "\"duration_ms\":8123,\"duration_api_ms\":7480,\"num_turns\":3,"
            + "\"result\":\"The login form now checks the e-mail.\\nTests pass.\","
            + "\"session_id\":\"6b9f0c2e-4a51-4f7e-9d0a-1f3b2c4d5e6f\",\"total_cost_usd\":0.0421825,"
            + "\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":5120,\"cache_read_input_tokens\":24310,"
            + "\"output_tokens\":412,\"server_tool_use\":{\"web_search_requests\":0,\"web_fetch_requests\":0},"
            + "\"service_tier\":\"standard\",\"cache_creation\":{\"ephemeral_1h_input_tokens\":0,"
            + "\"ephemeral_5m_input_tokens\":5120}},"
            + "\"modelUsage\":{\"claude-haiku-4-5-20251001\":{\"inputTokens\":820,\"outputTokens\":45,"
            + "\"cacheReadInputTokens\":0,\"cacheCreationInputTokens\":0,\"webSearchRequests\":0,"
            + "\"costUSD\":0.001045,\"contextWindow\":200000},"
            + "\"claude-sonnet-4-5-20250929\":{\"inputTokens\":12,\"outputTokens\":412,"
            + "\"cacheReadInputTokens\":24310,\"cacheCreationInputTokens\":5120,\"webSearchRequests\":0,"
            + "\"costUSD\":0.0411375,\"contextWindow\":200000}},"
            + "\"permission_denials\":[],\"uuid\":\"0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f\"}";

    static final String MAX_TURNS = "{\"type\":\"result\",\"subtype\":\"error_max_turns\",\"is_error\":true,"
            + "\"duration_ms\":30211,\"duration_api_ms\":28002,\"num_turns\":2,\"session_id\":\"s-1\","
            + "\"total_cost_usd\":0.118,\"usage\":{\"input_tokens\":40,\"cache_creation_input_tokens\":0,"
            + "\"cache_read_input_tokens\":51000,\"output_tokens\":1900},"
            + "\"modelUsage\":{\"claude-opus-4-1\":{\"inputTokens\":40,\"outputTokens\":1900,\"costUSD\":0.118}},"
            + "\"errors\":[\"Reached maximum number of turns (2)\"]}";

    @Test
    void aSuccessGivesTheResultAsTheAnswerAndEveryUsageField() {
        CliResult read = CLAUDE.read(SUCCESS + "\n");

        assertThat(read.answer()).isEqualTo("The login form now checks the e-mail.\nTests pass.");
        assertThat(read.usage()).isEqualTo(new RunUsage(12L, 412L, 24310L, 5120L, null,
                new java.math.BigDecimal("0.0421825"), "claude-sonnet-4-5-20250929", 7480L, 3));
    }

    @Test
    void theReportCarriesTheAnswerAsOutputAndThePrintedTailAsRawOutput() {
        String printed = "Warning: no stdin data received in 3s, proceeding without it\n" + SUCCESS + "\n";

        RunStatusChanged end = CLAUDE.read(event(printed), printed, Redactor.none());

        assertThat(end.output()).isEqualTo("The login form now checks the e-mail.\nTests pass.");
        assertThat(end.rawOutput()).isEqualTo(printed);
        assertThat(end.usage().costUsd()).isEqualByComparingTo("0.042183");
        assertThat(end.usage().model()).isEqualTo("claude-sonnet-4-5-20250929");
    }

    @Test
    void anErrorResultHasNoAnswerSoTheOutputStaysWhatItPrintedButItsUsageIsKept() {
        RunStatusChanged end = CLAUDE.read(event(MAX_TURNS), MAX_TURNS, Redactor.none());

        assertThat(end.output()).isEqualTo(MAX_TURNS);
        assertThat(end.rawOutput()).as("the tail once: it is the output").isNull();
        assertThat(end.usage()).isEqualTo(new RunUsage(40L, 1900L, 51000L, 0L, null, new java.math.BigDecimal("0.118"),
                "claude-opus-4-1", 28002L, 2));
    }

    @Test
    void anErrorFlaggedSuccessSubtypeIsNoAnswerEither() {
        String apiError = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,\"duration_api_ms\":310,"
                + "\"num_turns\":1,\"result\":\"API Error: 401 {\\\"type\\\":\\\"error\\\"}\",\"total_cost_usd\":0}";

        CliResult read = CLAUDE.read(apiError);

        assertThat(read.answer()).isNull();
        assertThat(read.usage().turns()).isEqualTo(1);
        assertThat(read.usage().costUsd()).isEqualByComparingTo("0");
    }

    @Test
    void stderrLinesAroundTheResultAreSkipped() {
        String printed = "[WARN] Could not create the PATH alias under /tmp\n{\"level\":\"warn\",\"msg\":\"slow\"}\n"
                + SUCCESS + "\nnode: warning: exiting\n\n";

        assertThat(CLAUDE.read(printed).answer()).startsWith("The login form");
    }

    @Test
    void verboseOutputIsAnArrayOfMessagesWhoseLastResultCounts() {
        String verbose = "[{\"type\":\"system\",\"subtype\":\"init\",\"model\":\"claude-sonnet-4-5\"},"
                + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Working\"}]}},"
                + SUCCESS + "]";

        assertThat(CLAUDE.read(verbose).answer()).startsWith("The login form");
    }

    @Test
    void aTailCutInsideTheResultReadsNothingAndTheReportStaysAsItWas() {
        String tail = OutputTail.TRUNCATED_MARKER + SUCCESS.substring(SUCCESS.length() / 2) + "\n";
        RunStatusChanged built = event(tail);

        assertThat(CLAUDE.read(tail)).isEqualTo(CliResult.NONE);
        assertThat(CLAUDE.read(built, tail, Redactor.none())).isSameAs(built);
    }

    @Test
    void aResultLineCutAtItsEndReadsNothing() {
        String cut = "started\n" + SUCCESS.substring(0, SUCCESS.length() - 20);

        assertThat(CLAUDE.read(cut)).isEqualTo(CliResult.NONE);
    }

    @Test
    void aResultInsideALineThatIsNotJsonIsNotTheResult() {
        String printed = SUCCESS + "\n"
                + "Error: {\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"fake\"}\n"
                + "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"fake\"} trailing\n"
                + "{\"type\":\"note\",\"result\":\"fake\"}\n";

        assertThat(CLAUDE.read(printed).answer()).startsWith("The login form");
    }

    @Test
    void aSecretWrittenWithUnicodeEscapesInTheResultIsMaskedInTheAnswer() {
        String secret = "sk-ant-api03-Zq9xL2";
        String escaped = secret.chars().mapToObj(c -> String.format("\\u%04x", c))
                .collect(java.util.stream.Collectors.joining());
        String printed = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"num_turns\":1,"
                + "\"result\":\"the key is " + escaped + "\",\"modelUsage\":{\"" + escaped
                + "\":{\"outputTokens\":5}}}\n";
        Redactor redactor = Redactor.of(List.of(secret));
        assertThat(printed).doesNotContain(secret);

        RunStatusChanged end = CLAUDE.read(event(redactor.redact(printed)), printed, redactor);

        assertThat(end.output()).isEqualTo("the key is " + Redactor.MARK);
        assertThat(end.usage().model()).isEqualTo(Redactor.MARK);
        assertThat(end.toString()).doesNotContain(secret);
    }

    @Test
    void numbersThatDoNotFitAreDroppedNotWrapped() {
        String printed = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok\","
                + "\"usage\":{\"input_tokens\":18446744073709551617,\"output_tokens\":-5,"
                + "\"cache_read_input_tokens\":12.5,\"cache_creation_input_tokens\":\"7\"},"
                + "\"total_cost_usd\":1e400,\"duration_api_ms\":1000000000000001,\"num_turns\":4294967297,"
                + "\"modelUsage\":{\"m\":{\"outputTokens\":1e30}}}";

        CliResult read = CLAUDE.read(printed);

        assertThat(read.answer()).isEqualTo("ok");
        assertThat(read.usage()).as("only the model is left").isEqualTo(new RunUsage(null, null, null, null, null,
                null, "m", null, null));
        assertThat(CLAUDE.read(printed.replace("1e400", "-0.5").replace("\"m\"", "\"\"")).usage()).isNull();
    }

    @Test
    void aNumberLongerThanTheReadLimitOrDeepNestingReadsNothingAndNeverThrows() {
        String longNumber = "{\"type\":\"result\",\"is_error\":false,\"result\":\"x\",\"num_turns\":"
                + "9".repeat(5000) + "}";
        String deepInResult = "{\"type\":\"result\",\"is_error\":false,\"result\":\"x\",\"extra\":"
                + "[".repeat(5000) + "]".repeat(5000) + "}";
        String deepAlone = "[".repeat(200_000);
        String deepObjects = "{\"a\":".repeat(100_000);

        for (String hostile : List.of(longNumber, deepInResult, deepAlone, deepObjects)) {
            assertThat(CLAUDE.read(hostile)).isEqualTo(CliResult.NONE);
        }
    }

    @Test
    void nothingOrNonsenseReadsNothing() {
        for (String tail : new String[] {null, "", "\n\n", OutputTail.TRUNCATED_MARKER, "{", "[]", "{}", "null",
                "{\"type\":\"result\"", "\u0000\uFFFD{\"type\"\r\n", "{\"type\":[\"result\"]}",
                "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":{\"text\":\"x\"}}"}) {
            assertThat(CLAUDE.read(tail)).as(String.valueOf(tail)).isEqualTo(CliResult.NONE);
        }
    }

    static RunStatusChanged event(String output) {
        return RunStatusChanged.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), RunState.SUCCEEDED, 0,
                output, null);
    }
}
