package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The adapter_config contract of the CLI agents: what each adapter accepts, and every way to get it wrong. */
class CliAdapterConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(Map<String, ?> config) {
        return JSON.valueToTree(config);
    }

    @Test
    void aFullSandboxConfigIsRead() {
        CliAdapterConfig c = CliAdapterConfig.parse(AdapterType.CLAUDE_SANDBOX, json(Map.of(
                "model", "claude-sonnet-4-5", "dangerously_skip_permissions", true,
                "extra_args", List.of("--max-turns", "5", "--verbose", "--permission-mode", "plan"),
                "api_key_secret", "TEAM_ANTHROPIC", "timeout_sec", 600, "image", "registry.local/claude:1",
                "memory", "1g", "cpus", 1.5, "pids_limit", 64)));

        assertThat(c.cli()).isEqualTo(AgentCli.CLAUDE);
        assertThat(c.sandboxed()).isTrue();
        assertThat(c.model()).isEqualTo("claude-sonnet-4-5");
        assertThat(c.dangerouslySkipPermissions()).isTrue();
        assertThat(c.extraArgs()).containsExactly("--max-turns", "5", "--verbose", "--permission-mode", "plan");
        assertThat(c.apiKeySecretName()).isEqualTo("TEAM_ANTHROPIC");
        assertThat(c.timeoutSec()).isEqualTo(600);
        assertThat(c.image()).isEqualTo("registry.local/claude:1");
        assertThat(c.memoryBytes()).isEqualTo(1L << 30);
        assertThat(c.cpus()).isEqualTo(1.5);
        assertThat(c.pidsLimit()).isEqualTo(64L);
    }

    @Test
    void anEmptyConfigTakesTheDefaults() {
        CliAdapterConfig c = CliAdapterConfig.parse(AdapterType.CODEX_LOCAL, JSON.createObjectNode());

        assertThat(c.cli()).isEqualTo(AgentCli.CODEX);
        assertThat(c.sandboxed()).isFalse();
        assertThat(c.apiKeySecretName()).isEqualTo("OPENAI_API_KEY");
        assertThat(c.extraArgs()).isEmpty();
        assertThat(c.command()).isNull();
        assertThat(c.dangerouslySkipPermissions()).isFalse();
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "claude_sandbox | {\"command\":\"/usr/bin/claude\"}               | adapter_config.command",
            "claude_local   | {\"memory\":\"1g\"}                             | adapter_config.memory",
            "codex_local    | {\"image\":\"x:1\"}                             | adapter_config.image",
            "claude_sandbox | {\"nonsense\":true}                             | adapter_config.nonsense",
            "claude_sandbox | {\"model\":\"--evil\"}                          | adapter_config.model",
            "claude_sandbox | {\"model\":7}                                   | adapter_config.model",
            "claude_sandbox | {\"dangerously_skip_permissions\":\"yes\"}      | adapter_config.dangerously_skip_permissions",
            "claude_sandbox | {\"extra_args\":[\"--dangerously-skip-permissions\"]} | adapter_config.extra_args",
            "claude_sandbox | {\"extra_args\":[\"--permission-mode\",\"bypassPermissions\"]} | adapter_config.extra_args",
            "claude_sandbox | {\"extra_args\":[\"--max-turns\"]}             | adapter_config.extra_args",
            "claude_sandbox | {\"extra_args\":[\"--mcp-config\",\"x.json\"]} | adapter_config.extra_args",
            "claude_sandbox | {\"extra_args\":[\"-p\"]}                      | adapter_config.extra_args",
            "claude_sandbox | {\"extra_args\":\"--verbose\"}                  | adapter_config.extra_args",
            "codex_sandbox  | {\"extra_args\":[\"--sandbox\",\"danger-full-access\"]} | adapter_config.extra_args",
            "codex_sandbox  | {\"extra_args\":[\"--dangerously-bypass-approvals-and-sandbox\"]} | adapter_config.extra_args",
            "codex_sandbox  | {\"api_key_secret\":\"1KEY\"}                  | adapter_config.api_key_secret",
            "codex_sandbox  | {\"timeout_sec\":5}                            | adapter_config.timeout_sec",
            "codex_sandbox  | {\"pids_limit\":0}                             | adapter_config.pids_limit",
            "codex_sandbox  | {\"image\":\"UPPER:case\"}                     | adapter_config.image",
            "claude_local   | {\"command\":\"../claude\"}                     | adapter_config.command",
            "claude_local   | {\"command\":\"/opt/../bin/claude\"}            | adapter_config.command",
            "claude_local   | {\"command\":\"claude --yolo\"}                 | adapter_config.command",
            "claude_local   | []                                              | adapter_config",
    })
    void aBrokenConfigIsRefusedNamingTheField(String type, String config, String field) throws Exception {
        JsonNode node = JSON.readTree(config);
        AdapterType adapter = AdapterType.fromWire(type).orElseThrow();

        assertThatThrownBy(() -> CliAdapterConfig.parse(adapter, node))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> assertThat(e.field()).isEqualTo(field));
    }

    @Test
    void theDangerousFlagMustBeAskedForInTheOpenWhereTheGuardrailSeesIt() {
        assertThatThrownBy(() -> CliAdapterConfig.parse(AdapterType.CLAUDE_LOCAL,
                json(Map.of("extra_args", List.of("--dangerously-skip-permissions")))))
                .hasMessageContaining("dangerously_skip_permissions: true");
    }

    @Test
    void localCommandsAreNamesOrAbsolutePaths() {
        assertThat(CliAdapterConfig.parse(AdapterType.CLAUDE_LOCAL, json(Map.of("command", "claude"))).command())
                .isEqualTo("claude");
        assertThat(CliAdapterConfig.parse(AdapterType.CLAUDE_LOCAL,
                json(Map.of("command", "/usr/local/bin/claude"))).command()).isEqualTo("/usr/local/bin/claude");
    }

    @Test
    void onlyCliAdaptersHaveThisContract() {
        assertThatThrownBy(() -> CliAdapterConfig.parse(AdapterType.DOCKER, JSON.createObjectNode()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
