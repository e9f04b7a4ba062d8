package io.trimus.events.adapter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each adapter_config says which company secrets its runs take along, under which key, and whether they must exist. */
class SecretNeedsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSandboxedCliNeedsItsProviderKeyUnderTheVariableItBecomes() {
        assertThat(AdapterConfigs.parse(AdapterType.CLAUDE_SANDBOX, json("{}")).secretNeeds())
                .containsExactly(new SecretNeed("ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY", true,
                        "its ANTHROPIC_API_KEY"));
    }

    @Test
    void aLocalCliTakesItsKeyAlongOnlyWhenTheCompanyHasIt() {
        assertThat(AdapterConfigs.parse(AdapterType.CODEX_LOCAL, json("{\"api_key_secret\": \"TEAM_OPENAI\"}"))
                .secretNeeds())
                .containsExactly(new SecretNeed("TEAM_OPENAI", "OPENAI_API_KEY", false, "its OPENAI_API_KEY"));
    }

    @Test
    void aLambdaNeedsItsAuthHeaderValueOnlyWhenItNamesOne() {
        assertThat(AdapterConfigs.parse(AdapterType.LAMBDA,
                json("{\"endpoint_url\": \"https://agent.example.com/run\"}")).secretNeeds()).isEmpty();
        assertThat(AdapterConfigs.parse(AdapterType.LAMBDA, json("""
                {"endpoint_url": "https://agent.example.com/run",
                 "auth_header": {"name": "X-Api-Key", "secret": "AGENT_KEY"}}""")).secretNeeds())
                .containsExactly(new SecretNeed("AGENT_KEY", LambdaAdapterConfig.AUTH_HEADER_SECRET, true,
                        "the value of its X-Api-Key header"));
    }

    @Test
    void aDockerAgentNeedsNoSecrets() {
        assertThat(AdapterConfigs.parse(AdapterType.DOCKER, json("{\"image\": \"busybox:1.36\"}")).secretNeeds())
                .isEmpty();
    }

    @Test
    void aDockerAgentNeedsEachSecretOfItsSecretEnvUnderItsVariableInTheOrderWritten() {
        AdapterConfig config = AdapterConfigs.parse(AdapterType.DOCKER, json("""
                {"image": "busybox:1.36", "secret_env": {"NPM_TOKEN": "NPM", "GH_TOKEN": "GITHUB_TOKEN"}}"""));
        assertThat(config.secretNeeds()).containsExactly(
                new SecretNeed("NPM", "NPM_TOKEN", true, "its adapter_config.secret_env.NPM_TOKEN"),
                new SecretNeed("GITHUB_TOKEN", "GH_TOKEN", true, "its adapter_config.secret_env.GH_TOKEN"));
        assertThat(config.secretEnv()).containsExactly(Map.entry("NPM_TOKEN", "NPM"),
                Map.entry("GH_TOKEN", "GITHUB_TOKEN"));
    }

    @Test
    void aSandboxedCliNeedsItsProviderKeyThenItsSecretEnv() {
        assertThat(AdapterConfigs.parse(AdapterType.CODEX_SANDBOX, json("""
                {"secret_env": {"GH_TOKEN": "GITHUB_TOKEN"}}""")).secretNeeds()).containsExactly(
                new SecretNeed("OPENAI_API_KEY", "OPENAI_API_KEY", true, "its OPENAI_API_KEY"),
                new SecretNeed("GITHUB_TOKEN", "GH_TOKEN", true, "its adapter_config.secret_env.GH_TOKEN"));
    }

    @Test
    void aRemoteAgentsSecretEnvIsItsInnerAdapters() {
        assertThat(AdapterConfigs.parse(AdapterType.REMOTE, json("""
                {"worker_tag": "gpu", "adapter_type": "docker",
                 "adapter_config": {"image": "busybox:1.36", "secret_env": {"GH_TOKEN": "GITHUB_TOKEN"}}}"""))
                .secretEnv()).containsExactly(Map.entry("GH_TOKEN", "GITHUB_TOKEN"));
    }

    @Test
    void aRemoteAgentNeedsWhatTheAdapterOnItsWorkerNeeds() {
        assertThat(AdapterConfigs.parse(AdapterType.REMOTE, json("""
                {"worker_tag": "gpu", "adapter_type": "claude_sandbox", "adapter_config": {}}""")).secretNeeds())
                .containsExactly(new SecretNeed("ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY", true,
                        "its ANTHROPIC_API_KEY"));
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
