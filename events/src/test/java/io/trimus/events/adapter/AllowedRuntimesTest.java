package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AllowedRuntimesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anAgentWithoutARuntimeGetsTheDefaultAndAnUnlistedOneIsRefusedNamingTheAllowedOnes() {
        AllowedRuntimes runtimes = new AllowedRuntimes(List.of("runc", " runsc ", ""), "runsc");
        assertThat(runtimes.names()).containsExactly("runc", "runsc");
        assertThat(runtimes.resolve(null)).isEqualTo("runsc");
        assertThat(runtimes.resolve("runc")).isEqualTo("runc");
        assertThatThrownBy(() -> runtimes.resolve("kata-runtime")).isInstanceOf(AdapterConfigException.class)
                .hasFieldOrPropertyWithValue("field", "adapter_config.runtime")
                .hasMessage("runtime kata-runtime is not available to agents on this Trimus"
                        + " (allowed: runc, runsc; the operator sets TRIMUS_DOCKER_RUNTIMES)");
        assertThat(new AllowedRuntimes(List.of("runc"), null).resolve(null)).isEqualTo("runc");
    }

    @Test
    void aDefaultOffTheListOrAListedNameThatIsNoRuntimeStopsTheService() {
        assertThatThrownBy(() -> new AllowedRuntimes(List.of("runc"), "runsc"))
                .hasMessageContaining("TRIMUS_DOCKER_DEFAULT_RUNTIME runsc is not one of TRIMUS_DOCKER_RUNTIMES (runc)");
        assertThatThrownBy(() -> new AllowedRuntimes(List.of("runc", "/usr/bin/runsc"), "runc"))
                .hasMessageContaining("TRIMUS_DOCKER_RUNTIMES: '/usr/bin/runsc' is not the name of a runtime");
    }

    @Test
    void theFieldIsARuntimeNameInDockerAndSandboxConfigsOnly() throws Exception {
        assertThat(DockerAdapterConfig.parse(JSON.readTree("{\"image\":\"busybox\",\"runtime\":\"runsc\"}")).runtime())
                .isEqualTo("runsc");
        assertThat(DockerAdapterConfig.parse(JSON.readTree("{\"image\":\"busybox\"}")).runtime()).isNull();
        for (String bad : List.of("\"\"", "\"../runsc\"", "\"RUNSC\"", "7", "[\"runsc\"]", "\"" + "r".repeat(65) + "\"")) {
            assertThatThrownBy(() -> DockerAdapterConfig.parse(JSON.readTree("{\"image\":\"busybox\",\"runtime\":" + bad
                    + "}"))).isInstanceOf(AdapterConfigException.class).hasFieldOrPropertyWithValue("field", "adapter_config.runtime");
        }
        assertThat(CliAdapterConfig.parse(AdapterType.CODEX_SANDBOX, JSON.readTree("{\"runtime\":\"runsc\"}")).runtime())
                .isEqualTo("runsc");
        assertThatThrownBy(() -> CliAdapterConfig.parse(AdapterType.CODEX_LOCAL, JSON.readTree("{\"runtime\":\"runsc\"}")))
                .isInstanceOf(AdapterConfigException.class).hasFieldOrPropertyWithValue("field", "adapter_config.runtime");
    }
}
