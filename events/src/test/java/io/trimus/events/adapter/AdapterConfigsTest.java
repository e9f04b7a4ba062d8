package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Only adapters this version can run are accepted; anything else is refused on adapter_type. */
class AdapterConfigsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode DOCKER_CONFIG = JSON.createObjectNode().put("image", "busybox:1.36");

    @Test
    void aValidDockerAgentIsAccepted() {
        assertThat(AdapterConfigs.validate("docker", DOCKER_CONFIG)).isEqualTo(AdapterType.DOCKER);
    }

    @Test
    void theAdapterTypeIsMatchedWithoutRegardToCase() {
        assertThat(AdapterConfigs.validate("Docker", DOCKER_CONFIG)).isEqualTo(AdapterType.DOCKER);
    }

    @Test
    void aDockerAgentIsCheckedAgainstTheDockerContract() {
        assertThatThrownBy(() -> AdapterConfigs.validate("docker", JSON.createObjectNode()))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config.image"));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "\t"})
    void aMissingAdapterTypeIsRefused(String type) {
        assertThatThrownBy(() -> AdapterConfigs.validate(type, DOCKER_CONFIG))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).isEqualTo("adapter_type");
                    assertThat(e.getMessage()).contains("required");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"kubernetes", "docker ", "dock", "DOCKER_LOCAL"})
    void anUnknownAdapterTypeIsRefusedWithTheKnownOnes(String type) {
        assertThatThrownBy(() -> AdapterConfigs.validate(type, DOCKER_CONFIG))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).isEqualTo("adapter_type");
                    assertThat(e.getMessage()).contains("unknown");
                    assertThat(Arrays.stream(AdapterType.values()).map(AdapterType::wireName))
                            .allSatisfy(known -> assertThat(e.getMessage()).contains(known));
                });
    }

    @Test
    void aLambdaAgentIsCheckedAgainstTheLambdaContract() {
        assertThat(AdapterConfigs.validate("lambda", JSON.createObjectNode()
                .put("endpoint_url", "https://agent.example.com/run"))).isEqualTo(AdapterType.LAMBDA);
        assertThatThrownBy(() -> AdapterConfigs.validate("lambda", DOCKER_CONFIG))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config.image"));
    }

    @Test
    void aRemoteAgentIsCheckedAgainstTheRemoteContract() {
        assertThat(AdapterConfigs.validate("remote", JSON.createObjectNode().put("worker_tag", "gpu")
                .put("adapter_type", "docker").set("adapter_config", DOCKER_CONFIG))).isEqualTo(AdapterType.REMOTE);
        assertThatThrownBy(() -> AdapterConfigs.validate("remote", DOCKER_CONFIG))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config.image"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude_local", "codex_local", "claude_sandbox", "codex_sandbox"})
    void cliAgentsAreCheckedAgainstTheCliContract(String type) {
        assertThat(AdapterConfigs.validate(type, JSON.createObjectNode()).wireName()).isEqualTo(type);
        assertThatThrownBy(() -> AdapterConfigs.validate(type, JSON.createObjectNode().put("nonsense", 1)))
                .isInstanceOfSatisfying(AdapterConfigException.class,
                        e -> assertThat(e.field()).isEqualTo("adapter_config.nonsense"));
    }

    @Test
    void everyAdapterTypeHasItsWireNameAndIsolation() {
        assertThat(Arrays.stream(AdapterType.values()))
                .allSatisfy(t -> assertThat(AdapterType.fromWire(t.wireName())).contains(t));
        assertThat(AdapterType.CLAUDE_LOCAL.isolation()).isEqualTo("host");
        assertThat(AdapterType.DOCKER.isolation()).isEqualTo("container");
        assertThat(AdapterType.fromWire(null)).isEmpty();
    }
}
