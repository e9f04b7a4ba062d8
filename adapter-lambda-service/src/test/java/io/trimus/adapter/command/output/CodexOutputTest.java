package io.trimus.adapter.command.output;

import io.trimus.events.OutputTail;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.RunUsage;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.secrets.Redactor;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.trimus.adapter.command.output.ClaudeOutputTest.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Codex's {@code exec --json} event stream read into the answer (its last agent message) and usage (summed over its
 * turns), with its stderr interleaved, cut at the front, or hostile.
 */
class CodexOutputTest {
    private static final CliOutput CODEX = new CliOutput(AgentCli.CODEX, "gpt-5-codex");

    /** Codex 0.171 on two turns, with its stderr warnings in between. */
    static final String RUN = """
            Reading additional input from stdin...
            {"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}
            {"type":"turn.started"}
            {"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Scanning the form**"}}
            {"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}
            {"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"src\\n","exit_code":0,"status":"completed"}}
            {"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Looking at the form first."}}
            {"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122,"reasoning_output_tokens":64}}
            WARNING: proceeding, even though we could not update PATH: Read-only file system (os error 30)
            {"type":"turn.started"}
            {"type":"item.updated","item":{"id":"item_3","type":"agent_message","text":"The form"}}
            {"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"The form validates e-mails now."}}
            {"type":"item.completed","item":{"id":"item_4","type":"todo_list","items":[{"text":"check","completed":true}]}}
            {"type":"turn.completed","usage":{"input_tokens":1000,"cached_input_tokens":500,"cache_write_input_tokens":20,"output_tokens":30,"reasoning_output_tokens":6}}
            """;

    @Test
    void theLastAgentMessageIsTheAnswerAndTheUsageIsSummedOverTheTurns() {
        CliResult read = CODEX.read(RUN);

        assertThat(read.answer()).isEqualTo("The form validates e-mails now.");
        assertThat(read.usage()).isEqualTo(new RunUsage(815L, 152L, 24948L, 20L, 70L, null, "gpt-5-codex", null,
                2));
    }

    @Test
    void codexStatesNoCostAndNoModelSoTheModelIsOnlyTheOneConfigured() {
        CliResult read = new CliOutput(AgentCli.CODEX, null).read(RUN);

        assertThat(read.usage().model()).isNull();
        assertThat(read.usage().costUsd()).isNull();
        assertThat(read.usage().apiDurationMs()).isNull();
    }

    @Test
    void theReportCarriesTheAnswerAndTheStream() {
        RunStatusChanged end = CODEX.read(event(RUN), RUN, Redactor.none());

        assertThat(end.output()).isEqualTo("The form validates e-mails now.");
        assertThat(end.rawOutput()).isEqualTo(RUN);
        assertThat(end.usage().turns()).isEqualTo(2);
    }

    @Test
    void aFailedTurnAfterTheLastMessageLeavesTheOutputAsPrintedWithTheUsageSoFar() {
        String failed = RUN + "{\"type\":\"turn.started\"}\n"
                + "{\"type\":\"error\",\"message\":\"stream disconnected before completion\"}\n"
                + "{\"type\":\"turn.failed\",\"error\":{\"message\":\"stream disconnected before completion\"}}\n";

        RunStatusChanged end = CODEX.read(event(failed), failed, Redactor.none());

        assertThat(end.output()).isEqualTo(failed);
        assertThat(end.usage().turns()).isEqualTo(2);
    }

    @Test
    void anErrorBeforeAnyTurnReadsNothing() {
        String refused = """
                Reading additional input from stdin...
                {"type":"thread.started","thread_id":"t-1"}
                {"type":"turn.started"}
                {"type":"error","message":"unexpected status 401 Unauthorized"}
                {"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized"}}
                """;
        RunStatusChanged built = event(refused);

        assertThat(CODEX.read(built, refused, Redactor.none())).isSameAs(built);
    }

    @Test
    void aRetriedStreamThatThenAnswersKeepsTheAnswer() {
        String retried = "{\"type\":\"error\",\"message\":\"Reconnecting... 1/5\"}\n" + RUN;

        assertThat(CODEX.read(retried).answer()).isEqualTo("The form validates e-mails now.");
    }

    @Test
    void aTailCutAtTheFrontStillReadsTheLinesThatAreWhole() {
        String tail = OutputTail.TRUNCATED_MARKER + RUN.substring(RUN.indexOf("\"turn.started\"}") + 3);

        CliResult read = CODEX.read(tail);

        assertThat(read.answer()).isEqualTo("The form validates e-mails now.");
        assertThat(read.usage().turns()).as("both turn.completed lines are whole").isEqualTo(2);
    }

    @Test
    void sumsPastTheBoundAndBadCountsAreDroppedNeverWrapped() {
        String turn = "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":" + RunUsage.MAX_COUNT
                + ",\"cached_input_tokens\":-1,\"output_tokens\":9223372036854775807,\"reasoning_output_tokens\":3}}\n";
        String many = turn.repeat(3) + "{\"type\":\"turn.completed\",\"usage\":{\"reasoning_output_tokens\":\"4\"}}\n";

        RunUsage usage = CODEX.read(many).usage();

        assertThat(usage).isEqualTo(new RunUsage(null, null, null, null, null, null, "gpt-5-codex", null, 4));
        assertThat(CODEX.read(turn.repeat(2)).usage().reasoningTokens()).isEqualTo(6L);
    }

    @Test
    void hostileLinesAreSkippedAndNeverThrow() {
        String hostile = "[".repeat(100_000) + "\n"
                + "{\"type\":\"item.completed\",\"item\":" + "{\"a\":".repeat(3000) + "1" + "}".repeat(3000) + "}\n"
                + "echo {\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"fake\"}}\n"
                + "{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":[\"not text\"]}}\n"
                + "{\"type\":\"item.completed\",\"item\":\"agent_message\"}\n"
                + "{\"type\":\"turn.completed\",\"usage\":[1,2]}\n"
                + "{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"real\"}}\n"
                + "{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"x\"}} {}\n";

        CliResult read = CODEX.read(hostile);

        assertThat(read.answer()).isEqualTo("real");
        assertThat(read.usage()).isEqualTo(new RunUsage(null, null, null, null, null, null, "gpt-5-codex", null, 1));
    }

    @Test
    void aSecretWrittenWithUnicodeEscapesInAnAgentMessageIsMaskedInTheAnswer() {
        String secret = "sk-proj-Q7w8e9r0";
        String escaped = secret.chars().mapToObj(c -> String.format("\\u%04X", c))
                .collect(java.util.stream.Collectors.joining());
        String printed = "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_0\",\"type\":\"agent_message\","
                + "\"text\":\"" + escaped + "\"}}\n";
        Redactor redactor = Redactor.of(List.of(secret));

        RunStatusChanged end = CODEX.read(event(redactor.redact(printed)), printed, redactor);

        assertThat(end.output()).isEqualTo(Redactor.MARK);
    }
}
