package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.events.EgressCa;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The variables that point a sandbox's TLS clients at the egress CA are Trimus's: an agent's {@code env} or
 * {@code secret_env} naming one is refused, naming the field, so it could not point them at a CA of its own choosing.
 */
class EgressCaEnvTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aDockerAgentsEnvCannotNameACaVariable() {
        for (String name : caVariables()) {
            assertThatThrownBy(() -> DockerAdapterConfig.parse(JSON.valueToTree(Map.of("image", "busybox:1.36",
                    "env", Map.of(name, "/tmp/mine.pem"))))).isInstanceOf(AdapterConfigException.class)
                    .hasFieldOrPropertyWithValue("field", "adapter_config.env." + name)
                    .hasMessageContaining(EgressCa.DIRECTORY);
        }
    }

    @Test
    void aSecretEnvCannotNameACaVariable() {
        for (String name : caVariables()) {
            assertThatThrownBy(() -> DockerAdapterConfig.parse(JSON.valueToTree(Map.of("image", "busybox:1.36",
                    "secret_env", Map.of(name, "SOME_SECRET"))))).isInstanceOf(AdapterConfigException.class)
                    .hasFieldOrPropertyWithValue("field", "adapter_config.secret_env." + name);
            assertThatThrownBy(() -> CliAdapterConfig.parse(AdapterType.CODEX_SANDBOX, JSON.valueToTree(Map.of(
                    "secret_env", Map.of(name, "SOME_SECRET"))))).isInstanceOf(AdapterConfigException.class)
                    .hasFieldOrPropertyWithValue("field", "adapter_config.secret_env." + name);
        }
    }

    private static List<String> caVariables() {
        List<String> names = new ArrayList<>(EgressCa.EXTRA_CA_ENV);
        names.addAll(EgressCa.BUNDLE_ENV);
        return names;
    }
}
