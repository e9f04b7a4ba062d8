package io.trimus.adapter.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.events.adapter.AdapterConfigException;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliAdapterConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A secret_env variable cannot be one the sandbox sets itself: the adapter would write its own value over the secret
 * (and mask that value in the output instead). Kept here because {@link QuietCli} lives in this module.
 */
class SandboxOwnEnvTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @EnumSource(value = AdapterType.class, names = {"CLAUDE_SANDBOX", "CODEX_SANDBOX"})
    void everyVariableTheSandboxSetsItselfIsRefusedAsASecretEnvVariable(AdapterType type) {
        for (String own : QuietCli.env(AgentCli.of(type)).keySet()) {
            assertThatThrownBy(() -> CliAdapterConfig.parse(type, JSON.valueToTree(Map.of("secret_env",
                    Map.of(own, "SOME_SECRET"))))).isInstanceOf(AdapterConfigException.class)
                    .hasFieldOrPropertyWithValue("field", "adapter_config.secret_env." + own);
        }
        for (String own : new String[] {"HOME", "IS_SANDBOX", "CODEX_HOME", AgentCli.of(type).apiKeyEnv()}) {
            assertThatThrownBy(() -> CliAdapterConfig.parse(type, JSON.valueToTree(Map.of("secret_env",
                    Map.of(own, "SOME_SECRET"))))).isInstanceOf(AdapterConfigException.class)
                    .hasFieldOrPropertyWithValue("field", "adapter_config.secret_env." + own);
        }
    }
}
