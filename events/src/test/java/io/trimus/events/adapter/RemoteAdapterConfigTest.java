package io.trimus.events.adapter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A remote adapter_config names either a worker tag and an inner adapter that a worker can run, checked by its own
 * contract, or an A2A peer.
 */
class RemoteAdapterConfigTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aDockerRunOnAGpuWorkerIsReadIntoItsParts() {
        RemoteAdapterConfig config = RemoteAdapterConfig.parse(json("""
                {"worker_tag": "gpu", "adapter_type": "docker",
                 "adapter_config": {"image": "busybox:1.36", "command": ["echo", "hi"]}}"""));

        assertThat(config.workerTag()).isEqualTo("gpu");
        assertThat(config.adapterType()).isEqualTo(AdapterType.DOCKER);
        assertThat(config.adapterConfig().get("image").asText()).isEqualTo("busybox:1.36");
    }

    @ParameterizedTest
    @ValueSource(strings = {"docker", "claude_sandbox", "codex_sandbox", "claude_local", "codex_local", "lambda"})
    void everyLocalCapableAdapterMayRunOnAWorker(String type) {
        String inner = type.equals("docker") ? "{\"image\": \"busybox:1.36\"}"
                : type.equals("lambda") ? "{\"endpoint_url\": \"https://agent.example.com/run\"}" : "{}";

        assertThat(RemoteAdapterConfig.parse(json("{\"worker_tag\": \"eu-build.2\", \"adapter_type\": \"" + type
                + "\", \"adapter_config\": " + inner + "}")).adapterType().wireName()).isEqualTo(type);
    }

    @Test
    void aRemoteRunCannotBeHandedOnToAnotherRemote() {
        assertRefused("""
                {"worker_tag": "gpu", "adapter_type": "remote",
                 "adapter_config": {"worker_tag": "cpu", "adapter_type": "docker", "adapter_config": {"image": "busybox"}}}""",
                "adapter_config.adapter_type", "cannot be remote");
    }

    @Test
    void theInnerConfigIsCheckedByItsAdaptersContractAndNamedUnderTheRemoteConfig() {
        assertRefused("""
                {"worker_tag": "gpu", "adapter_type": "docker", "adapter_config": {"command": ["echo"]}}""",
                "adapter_config.adapter_config.image", "required");
        assertRefused("""
                {"worker_tag": "gpu", "adapter_type": "docker", "adapter_config": {"image": "busybox", "pids_limit": -1}}""",
                "adapter_config.adapter_config.pids_limit", "");
    }

    @CsvSource(delimiter = '|', value = {
            "{\"adapter_type\": \"docker\", \"adapter_config\": {\"image\": \"busybox\"}}|adapter_config.worker_tag|required",
            "{\"worker_tag\": \"-gpu\", \"adapter_type\": \"docker\", \"adapter_config\": {\"image\": \"busybox\"}}|adapter_config.worker_tag|letters",
            "{\"worker_tag\": \"g p u\", \"adapter_type\": \"docker\", \"adapter_config\": {\"image\": \"busybox\"}}|adapter_config.worker_tag|letters",
            "{\"worker_tag\": 7, \"adapter_type\": \"docker\", \"adapter_config\": {\"image\": \"busybox\"}}|adapter_config.worker_tag|letters",
            "{\"worker_tag\": \"gpu\", \"adapter_config\": {\"image\": \"busybox\"}}|adapter_config.adapter_type|required",
            "{\"worker_tag\": \"gpu\", \"adapter_type\": \"kubernetes\", \"adapter_config\": {}}|adapter_config.adapter_type|unknown",
            "{\"worker_tag\": \"gpu\", \"adapter_type\": \"docker\"}|adapter_config.adapter_config|required",
            "{\"worker_tag\": \"gpu\", \"adapter_type\": \"docker\", \"adapter_config\": {\"image\": \"busybox\"}, \"host\": \"x\"}|adapter_config.host|not a remote adapter setting"})
    @ParameterizedTest
    void aConfigThatBreaksTheContractNamesTheField(String config, String field, String message) {
        assertRefused(config, field, message);
    }

    @Test
    void aTagLongerThan64CharactersIsRefused() {
        assertRefused("{\"worker_tag\": \"" + "a".repeat(65) + "\", \"adapter_type\": \"docker\","
                + " \"adapter_config\": {\"image\": \"busybox\"}}", "adapter_config.worker_tag", "64");
    }

    @Test
    void anA2aPeerIsReadWithItsAuthHeaderSecretSkillAndTimeout() {
        RemoteAdapterConfig config = RemoteAdapterConfig.parse(json("""
                {"a2a": {"url": "https://peer.example/a2a/agents/7", "skill": "fix-bug",
                         "auth_header": {"name": "Authorization", "secret": "PEER_TOKEN"}, "timeout_ms": 90000}}"""));

        assertThat(config.toPeer()).isTrue();
        assertThat(config.workerTag()).isNull();
        assertThat(config.a2a().url()).hasToString("https://peer.example/a2a/agents/7");
        assertThat(config.a2a().port()).isEqualTo(443);
        assertThat(config.a2a().skill()).isEqualTo("fix-bug");
        assertThat(config.a2a().timeoutMs()).isEqualTo(90_000);
        assertThat(config.secretNeeds()).singleElement().satisfies(need -> {
            assertThat(need.secretName()).isEqualTo("PEER_TOKEN");
            assertThat(need.sealedAs()).isEqualTo(A2aPeerConfig.AUTH_HEADER_SECRET);
        });
        assertThat(config.secretEnv()).isEmpty();
        assertThatThrownBy(() -> config.inner(null)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aPeerWithoutAuthOrSkillTakesTheDefaultTimeoutAndNeedsNoSecret() {
        RemoteAdapterConfig config = RemoteAdapterConfig.parse(json("{\"a2a\": {\"url\": \"http://10.0.0.5:8080/a2a\"}}"));

        assertThat(config.a2a().timeoutMs()).isEqualTo(A2aPeerConfig.DEFAULT_TIMEOUT_MS);
        assertThat(config.a2a().authHeader()).isNull();
        assertThat(config.a2a().skill()).isNull();
        assertThat(config.secretNeeds()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"a2a\": {\"url\": \"https://p.example\"}, \"worker_tag\": \"gpu\"} | adapter_config.worker_tag | either",
            "{\"a2a\": {\"url\": \"https://p.example\"}, \"adapter_type\": \"docker\"} | adapter_config.adapter_type | either",
            "{\"a2a\": \"https://p.example\"} | adapter_config.a2a | must be an object",
            "{\"a2a\": {}} | adapter_config.a2a.url | required",
            "{\"a2a\": {\"url\": \"ftp://p.example\"}} | adapter_config.a2a.url | http or https",
            "{\"a2a\": {\"url\": \"https://user:pw@p.example\"}} | adapter_config.a2a.url | credentials",
            "{\"a2a\": {\"url\": \"https://p.example\", \"redirects\": true}} | adapter_config.a2a.redirects | not an a2a setting",
            "{\"a2a\": {\"url\": \"https://p.example\", \"skill\": \"a b\"}} | adapter_config.a2a.skill | skills",
            "{\"a2a\": {\"url\": \"https://p.example\", \"timeout_ms\": 999}} | adapter_config.a2a.timeout_ms | between 1000 and 3600000",
            "{\"a2a\": {\"url\": \"https://p.example\", \"auth_header\": {\"name\": \"Authorization\"}}} | adapter_config.a2a.auth_header.secret | required",
            "{\"a2a\": {\"url\": \"https://p.example\", \"auth_header\": {\"name\": \"Host\", \"secret\": \"T\"}}} | adapter_config.a2a.auth_header.name | reserved",
            "{} | adapter_config.worker_tag | or a2a is required"})
    void aBrokenPeerIsRefusedNamingItsField(String config, String field, String message) {
        assertRefused(config, field, message);
    }

    private static void assertRefused(String config, String field, String message) {
        assertThatThrownBy(() -> RemoteAdapterConfig.parse(json(config)))
                .isInstanceOfSatisfying(AdapterConfigException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).contains(message);
                });
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
