package io.trimus.adapter.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.CliAdapterConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The argv of a CLI run: exactly what the agent may ask for, the guardrail's decision, and the prompt last. */
class CliCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static CliAdapterConfig config(AdapterType type, Map<String, ?> config) {
        return CliAdapterConfig.parse(type, JSON.valueToTree(config));
    }

    @Test
    void claudeGetsPrintModeJsonOutputItsModelAndFlagsAndThePromptAfterTheEndOfOptions() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CLAUDE_SANDBOX, Map.of("model", "claude-sonnet-4-5",
                "extra_args", List.of("--max-turns", "3"))), "claude", "Fix it", false);

        assertThat(cmd.argv()).containsExactly("claude", "-p", "--output-format", "json", "--model",
                "claude-sonnet-4-5", "--max-turns", "3", "--", "Fix it");
        assertThat(cmd.notes()).isEmpty();
    }

    @Test
    void codexGetsExecJson() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CODEX_LOCAL, Map.of("extra_args",
                List.of("--skip-git-repo-check"))), "/usr/local/bin/codex", "Fix it", false);

        assertThat(cmd.argv()).containsExactly("/usr/local/bin/codex", "exec", "--json", "--skip-git-repo-check", "--",
                "Fix it");
    }

    @Test
    void theDangerousFlagIsPassedWhenAskedForAndTheGuardrailIsOff() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CLAUDE_SANDBOX,
                Map.of("dangerously_skip_permissions", true)), "claude", "go", false);

        assertThat(cmd.argv()).contains("--dangerously-skip-permissions");
        assertThat(cmd.notes()).isEmpty();
    }

    @Test
    void theGuardrailDropsTheDangerousFlagAndSaysSoAsSec015() {
        CliCommand claude = CliCommand.build(config(AdapterType.CLAUDE_LOCAL,
                Map.of("dangerously_skip_permissions", true)), "claude", "go", true);
        CliCommand codex = CliCommand.build(config(AdapterType.CODEX_SANDBOX,
                Map.of("dangerously_skip_permissions", true)), "codex", "go", true);

        assertThat(claude.argv()).doesNotContain("--dangerously-skip-permissions");
        assertThat(claude.notes()).singleElement().asString().startsWith("SEC-015: --dangerously-skip-permissions was"
                + " dropped");
        assertThat(codex.argv()).doesNotContain("--dangerously-bypass-approvals-and-sandbox");
        assertThat(codex.notes()).singleElement().asString().startsWith("SEC-015:");
    }

    @Test
    void nothingIsNotedWhenTheAgentDidNotAsk() {
        assertThat(CliCommand.build(config(AdapterType.CLAUDE_LOCAL, Map.of()), "claude", "go", true).notes())
                .isEmpty();
    }

    @Test
    void aPromptThatLooksLikeAFlagStaysThePrompt() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CLAUDE_SANDBOX, Map.of()), "claude",
                "--dangerously-skip-permissions", false);

        assertThat(cmd.argv()).endsWith("--", "--dangerously-skip-permissions");
        assertThat(cmd.argv().indexOf("--dangerously-skip-permissions")).isEqualTo(cmd.argv().size() - 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "true", "TRUE", " yes ", "on"})
    void truthyValuesSwitchTheGuardrailOn(String value) {
        assertThat(CliCommand.truthy(value)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "false", "no", "off", "enabled"})
    void otherValuesLeaveItOff(String value) {
        assertThat(CliCommand.truthy(value)).isFalse();
        assertThat(CliCommand.truthy(null)).isFalse();
    }
}
