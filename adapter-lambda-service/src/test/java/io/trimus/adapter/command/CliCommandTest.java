package io.trimus.adapter.command;

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
    void codexGetsExecJsonOutsideAGitRepositoryWithAnEmptyConfig() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CODEX_LOCAL, Map.of()), "/usr/local/bin/codex", "Fix it",
                false);

        assertThat(cmd.argv()).containsExactly("/usr/local/bin/codex", "exec", "--json", "--skip-git-repo-check", "--",
                "Fix it");
    }

    @Test
    void anAgentThatAlsoAsksToSkipTheGitCheckPassesItOnce() {
        // Codex exits 2 on a flag given twice ("cannot be used multiple times")
        CliCommand cmd = CliCommand.build(config(AdapterType.CODEX_SANDBOX, Map.of("extra_args",
                List.of("--skip-git-repo-check", "--sandbox", "read-only"))), "codex", "Fix it", false);

        assertThat(cmd.argv()).containsExactly("codex", "exec", "--json", "--skip-git-repo-check", "--sandbox",
                "read-only", "--", "Fix it");
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

    @ParameterizedTest
    @ValueSource(strings = {"Bash", "bash", "Bash()", "Bash(*)", "Bash(:*)", "Bash(*:*)", "Bash(* --version)",
            "Bash(sh -c:*)", "Bash(bash:*)", "Bash(/usr/bin/python3:*)", "Bash(env:*)", "Bash(xargs:*)",
            "Bash(node -e:*)", "Bash(find:*)"})
    void theGuardrailDropsAnAllowedToolsRuleThatApprovesEveryShellCommand(String rule) {
        CliCommand cmd = CliCommand.build(config(AdapterType.CLAUDE_SANDBOX,
                Map.of("extra_args", List.of("--allowedTools", "Read," + rule + ",Edit"))), "claude", "go", true);

        assertThat(cmd.argv()).containsSubsequence("--allowedTools", "Read,Edit", "--", "go");
        assertThat(String.join(" ", cmd.argv())).doesNotContain(rule);
        assertThat(cmd.notes()).singleElement().asString().startsWith("SEC-015: --allowedTools rule '" + rule
                + "' was dropped");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bash(git log:*)", "Bash(npm run test:*)", "Bash(git diff)", "Read", "Edit(docs/**)",
            "WebFetch"})
    void narrowRulesStay(String rule) {
        CliCommand cmd = CliCommand.build(config(AdapterType.CLAUDE_SANDBOX,
                Map.of("extra_args", List.of("--allowedTools", rule))), "claude", "go", true);

        assertThat(cmd.argv()).containsSubsequence("--allowedTools", rule, "--", "go");
        assertThat(cmd.notes()).isEmpty();
    }

    @Test
    void aFlagLeftWithoutRulesIsDroppedWholeAndRulesSeparatedByBlanksAreReadAsRules() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CLAUDE_LOCAL,
                Map.of("extra_args", List.of("--allowedTools", "Bash Bash(sh -c:*)", "--max-turns", "2"))),
                "claude", "go", true);

        assertThat(cmd.argv()).containsExactly("claude", "-p", "--output-format", "json", "--max-turns", "2", "--",
                "go");
        assertThat(cmd.notes()).hasSize(2);
    }

    @Test
    void withoutTheGuardrailEveryGrantIsPassedAsAsked() {
        CliCommand claude = CliCommand.build(config(AdapterType.CLAUDE_SANDBOX,
                Map.of("extra_args", List.of("--allowedTools", "Bash"))), "claude", "go", false);
        CliCommand codex = CliCommand.build(config(AdapterType.CODEX_SANDBOX,
                Map.of("extra_args", List.of("--full-auto"))), "codex", "go", false);

        assertThat(claude.argv()).containsSubsequence("--allowedTools", "Bash");
        assertThat(codex.argv()).contains("--full-auto");
        assertThat(claude.notes()).isEmpty();
        assertThat(codex.notes()).isEmpty();
    }

    @Test
    void theGuardrailDropsCodexFullAuto() {
        CliCommand cmd = CliCommand.build(config(AdapterType.CODEX_SANDBOX,
                Map.of("extra_args", List.of("--full-auto", "--skip-git-repo-check"))), "codex", "go", true);

        assertThat(cmd.argv()).containsExactly("codex", "exec", "--json", "--skip-git-repo-check", "--", "go");
        assertThat(cmd.notes()).singleElement().asString().startsWith("SEC-015: --full-auto was dropped");
    }
}
