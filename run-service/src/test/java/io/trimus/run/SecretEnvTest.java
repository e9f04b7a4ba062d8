package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;

/**
 * Proves {@code adapter_config.secret_env} through the API, PostgreSQL and Kafka: a wrong shape is a 400 naming the
 * entry with nothing stored, a secret the company lacks or has not granted is a 409 naming it when the agent is created
 * and again when a run is (nothing queued), and a run carries each value sealed under its variable, never in clear.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SecretEnvTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();
    private static final String SECRET = "GITHUB_TOKEN";

    private static Map<String, Object> docker(Map<String, Object> secretEnv) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("image", "busybox:1.36");
        config.put("secret_env", secretEnv);
        return config;
    }

    private static Map<String, Object> agent(String type, Map<String, Object> config) {
        return Map.of("name", "with secrets", "adapter_type", type, "adapter_config", config);
    }

    private static List<String> agentsOf(String company) {
        return Db.texts("select id::text from run.agent where company_id = ?", UUID.fromString(company));
    }

    @Test
    void aWrongSecretEnvIsRefusedNamingTheEntryAndNothingIsStored() {
        String company = Api.createCompany("Shapes " + UUID.randomUUID());
        Api.setSecret(company, SECRET, "ghp_" + UUID.randomUUID());
        Map<String, Object> tooMany = new LinkedHashMap<>();
        for (int i = 0; i < 33; i++) {
            tooMany.put("VAR_" + i, SECRET);
        }

        assertInvalidField(Api.postAgent(company, agent("docker", docker(Map.of("GH_TOKEN", List.of(SECRET))))),
                "adapter_config.secret_env.GH_TOKEN");
        assertInvalidField(Api.postAgent(company, agent("docker", Map.of("image", "busybox:1.36",
                "secret_env", List.of("GH_TOKEN")))), "adapter_config.secret_env");
        assertInvalidField(Api.postAgent(company, agent("docker", docker(tooMany))), "adapter_config.secret_env")
                .body("detail", containsString("32"));
        assertInvalidField(Api.postAgent(company, agent("docker", docker(Map.of("1GH", SECRET)))),
                "adapter_config.secret_env.1GH");
        assertInvalidField(Api.postAgent(company, agent("docker", docker(Map.of("GH_TOKEN", "not-a-name")))),
                "adapter_config.secret_env.GH_TOKEN");
        for (String reserved : List.of("HTTPS_PROXY", "https_proxy", "No_Proxy", "TRIMUS_RUN_ID")) {
            assertInvalidField(Api.postAgent(company, agent("docker", docker(Map.of(reserved, SECRET)))),
                    "adapter_config.secret_env." + reserved);
        }
        Map<String, Object> twice = docker(Map.of("GH_TOKEN", SECRET));
        twice.put("env", Map.of("GH_TOKEN", "plain"));
        assertInvalidField(Api.postAgent(company, agent("docker", twice)), "adapter_config.secret_env.GH_TOKEN");
        assertInvalidField(Api.postAgent(company, agent("claude_sandbox",
                Map.of("secret_env", Map.of("ANTHROPIC_API_KEY", SECRET)))), "adapter_config.secret_env.ANTHROPIC_API_KEY")
                .body("detail", containsString("api_key_secret"));
        assertInvalidField(Api.postAgent(company, agent("codex_sandbox",
                Map.of("secret_env", Map.of("OPENAI_API_KEY", SECRET)))), "adapter_config.secret_env.OPENAI_API_KEY");
        assertInvalidField(Api.postAgent(company, agent("claude_sandbox",
                Map.of("secret_env", Map.of("HOME", SECRET)))), "adapter_config.secret_env.HOME");
        assertInvalidField(Api.postAgent(company, agent("claude_local",
                Map.of("secret_env", Map.of("GH_TOKEN", SECRET)))), "adapter_config.secret_env");

        assertThat(agentsOf(company)).isEmpty();
    }

    @Test
    void anAgentNamingASecretItCouldNeverUseIsRefusedNamingIt() {
        String company = Api.createCompany("Missing " + UUID.randomUUID());
        String other = Api.createAgent(company, "docker", Map.of("image", "busybox:1.36"));

        assertProblem(Api.postAgent(company, agent("docker", docker(Map.of("GH_TOKEN", SECRET)))), 409)
                .body("detail", allOf(containsString(SECRET), containsString("no secret"),
                        containsString("secret_env.GH_TOKEN")));
        Api.putSecret(company, SECRET, Map.of("value", "ghp_" + UUID.randomUUID(), "agents", List.of(other)))
                .statusCode(201);
        assertProblem(Api.postAgent(company, agent("claude_sandbox",
                Map.of("secret_env", Map.of("GH_TOKEN", SECRET)))), 409)
                .body("detail", allOf(containsString(SECRET), containsString("granted")));

        assertThat(agentsOf(company)).containsExactly(other);
    }

    @Test
    void aRunCarriesEachValueSealedUnderItsVariableAndIsRefusedOnceTheSecretIsGone() throws Exception {
        String company = Api.createCompany("Sealed " + UUID.randomUUID());
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        Api.setSecret(company, SECRET, token);
        String agent = Api.createDockerAgent(company, docker(Map.of("GH_TOKEN", SECRET, "GITHUB_TOKEN", SECRET)));

        String run = Api.startRun(company, agent, Map.of("input", "release"));
        String payload = kafka.awaitRecord(Topics.RUN_REQUESTED, run).value();
        assertThat(payload).doesNotContain(token);
        JsonNode sealed = JSON.readTree(payload).get("secrets");
        assertThat(Sealed.open(company, agent, run, Map.of("GH_TOKEN", sealed.get("GH_TOKEN").asText(),
                "GITHUB_TOKEN", sealed.get("GITHUB_TOKEN").asText())))
                .isEqualTo(Map.of("GH_TOKEN", token, "GITHUB_TOKEN", token));
        assertThat(Db.texts("select payload::text from run.outbox_event where message_key = ?", run))
                .noneMatch(row -> row.contains(token));

        String other = Api.createAgent(company, "docker", Map.of("image", "busybox:1.36"));
        Api.putSecret(company, SECRET, Map.of("value", token, "agents", List.of(other))).statusCode(200);
        assertProblem(Api.postRun(company, agent, Map.of("input", "again")), 409)
                .body("detail", allOf(containsString(SECRET), containsString("not granted"),
                        containsString("secret_env.")));
        Api.deleteSecret(company, SECRET).statusCode(204);
        assertProblem(Api.postRun(company, agent, Map.of("input", "again")), 409)
                .body("detail", allOf(containsString(SECRET), containsString("no secret")));
        assertThat(Db.texts("select id::text from run.run where agent_id = ?", UUID.fromString(agent)))
                .containsExactly(run);
    }
}
