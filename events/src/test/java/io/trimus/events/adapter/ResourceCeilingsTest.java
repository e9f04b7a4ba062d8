package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The operator's ceilings: checked at boot, applied to container agents only, worded the same for every field. */
class ResourceCeilingsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static AdapterConfig parse(String type, Map<String, ?> config) {
        return AdapterConfigs.parse(AdapterConfigs.validate(type, JSON.valueToTree(config)), JSON.valueToTree(config));
    }

    @Test
    void aWrongCeilingStopsTheServiceAtBootNamingItsVariable() {
        assertThatThrownBy(() -> new ResourceCeilings(9, 1024, "4g", 2))
                .hasMessage("TRIMUS_DOCKER_MAX_TIMEOUT_SEC must be between 10 and 86400, got 9");
        assertThatThrownBy(() -> new ResourceCeilings(86_401, 1024, "4g", 2))
                .hasMessage("TRIMUS_DOCKER_MAX_TIMEOUT_SEC must be between 10 and 86400, got 86401");
        assertThatThrownBy(() -> new ResourceCeilings(3600, 0, "4g", 2))
                .hasMessage("TRIMUS_DOCKER_MAX_PIDS must be greater than 0, got 0");
        assertThatThrownBy(() -> new ResourceCeilings(3600, 1024, "lots", 2))
                .hasMessage("TRIMUS_DOCKER_MAX_MEMORY must be a size like 512m or 2g (units b, k, m, g), got 'lots'");
        assertThatThrownBy(() -> new ResourceCeilings(3600, 1024, "4g", 0))
                .hasMessageStartingWith("TRIMUS_DOCKER_MAX_CPUS must be a number of CPUs between 0.01 and 1024");
    }

    @Test
    void memoryIsComparedInBytesWhateverTheUnit() {
        ResourceCeilings ceilings = new ResourceCeilings(3600, 1024, "4G", 2);
        assertThatCode(() -> ceilings.check(parse("docker", Map.of("image", "busybox", "memory", "4096m"))))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ceilings.check(parse("docker", Map.of("image", "busybox", "memory", "4194305k"))))
                .isInstanceOf(AdapterConfigException.class)
                .hasMessage("asks for 4194305k, above this Trimus's ceiling of 4g (the operator sets"
                        + " TRIMUS_DOCKER_MAX_MEMORY)");
    }

    @Test
    void hostProcessesAndOffHostAdaptersHaveNoContainerToBound() {
        ResourceCeilings tiny = new ResourceCeilings(10, 1, "6m", 0.01);
        assertThatCode(() -> tiny.check(parse("claude_local", Map.of("timeout_sec", 86_400))))
                .doesNotThrowAnyException();
        assertThatCode(() -> tiny.check(parse("lambda", Map.of("endpoint_url", "https://example.com/run"))))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> tiny.check(parse("codex_sandbox", Map.of("cpus", 0.5))))
                .isInstanceOf(AdapterConfigException.class)
                .hasMessage("asks for 0.5, above this Trimus's ceiling of 0.01 (the operator sets TRIMUS_DOCKER_MAX_CPUS)");
    }
}
