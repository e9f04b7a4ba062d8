package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Proves the CLI agents end to end through the API, PostgreSQL and Kafka: sandbox agents are created only with a
 * valid adapter_config (no permission bypass hidden in extra_args), local ones are refused while
 * TRIMUS_LOCAL_ADAPTERS is off, a sandbox run needs a prompt and its provider-key secret (nothing is queued
 * otherwise), and the key travels in run.requested only sealed for that run under TRIMUS_ENCRYPTION_KEY.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class CliAgentRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    private static String providerKey(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }

    @Test
    void sandboxAgentsAreCreatedWithValidConfigs() {
        String company = Api.createCompany("Sandboxes " + UUID.randomUUID());
        Map<String, Object> claude = new LinkedHashMap<>();
        claude.put("model", "claude-sonnet-4-5");
        claude.put("extra_args", List.of("--max-turns", "5", "--verbose", "--permission-mode", "acceptEdits"));
        claude.put("api_key_secret", "TEAM_ANTHROPIC_KEY");
        claude.put("timeout_sec", 900);
        claude.put("image", "ghcr.io/trimus/claude-sandbox:1.0");
        claude.put("memory", "2g");
        claude.put("cpus", 1.5);
        claude.put("pids_limit", 256);
        claude.put("dangerously_skip_permissions", true);
        String claudeAgent = Api.createAgent(company, "claude_sandbox", claude);
        Api.postAgent(company, Map.of("name", "bare", "adapter_type", "claude_sandbox", "adapter_config", Map.of()))
                .statusCode(201).body("adapter_type", equalTo("claude_sandbox"));
        String codexAgent = Api.createAgent(company, "codex_sandbox",
                Map.of("model", "gpt-5-codex", "extra_args", List.of("--sandbox", "workspace-write", "--full-auto")));

        io.restassured.RestAssured.given().get("/api/companies/{c}/agents/{a}", company, claudeAgent).then()
                .statusCode(200)
                .body("adapter_type", equalTo("claude_sandbox"))
                .body("isolation", equalTo("container"))
                .body("adapter_config.extra_args", equalTo(claude.get("extra_args")))
                .body("adapter_config.api_key_secret", equalTo("TEAM_ANTHROPIC_KEY"))
                .body("adapter_config.dangerously_skip_permissions", equalTo(true));
        io.restassured.RestAssured.given().get("/api/companies/{c}/agents/{a}", company, codexAgent).then()
                .statusCode(200).body("adapter_type", equalTo("codex_sandbox")).body("isolation", equalTo("container"));
        io.restassured.RestAssured.given().get("/api/companies/{c}/agents", company).then().body("$", hasSize(3));
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> invalidCliAgents() {
        return Stream.of(
                arguments("claude_sandbox", Map.of("colour", "blue"), "adapter_config.colour"),
                arguments("claude_sandbox", Map.of("extra_args", List.of("--dangerously-skip-permissions")),
                        "adapter_config.extra_args"),
                arguments("claude_sandbox", Map.of("extra_args", List.of("--permission-mode", "bypassPermissions")),
                        "adapter_config.extra_args"),
                arguments("claude_sandbox", Map.of("extra_args", List.of("--permission-mode")),
                        "adapter_config.extra_args"),
                arguments("claude_sandbox", Map.of("extra_args", List.of("--mcp-config", "/etc/passwd")),
                        "adapter_config.extra_args"),
                arguments("claude_sandbox", Map.of("extra_args", "--verbose"), "adapter_config.extra_args"),
                arguments("codex_sandbox", Map.of("extra_args", List.of("--dangerously-bypass-approvals-and-sandbox")),
                        "adapter_config.extra_args"),
                arguments("codex_sandbox", Map.of("extra_args", List.of("--sandbox", "danger-full-access")),
                        "adapter_config.extra_args"),
                arguments("claude_sandbox", Map.of("command", "claude"), "adapter_config.command"),
                arguments("codex_sandbox", Map.of("command", "/usr/bin/codex"), "adapter_config.command"),
                arguments("claude_local", Map.of("memory", "1g"), "adapter_config.memory"),
                arguments("codex_local", Map.of("image", "busybox"), "adapter_config.image"),
                arguments("claude_sandbox", Map.of("api_key_secret", "1-BAD"), "adapter_config.api_key_secret"),
                arguments("claude_sandbox", Map.of("dangerously_skip_permissions", "yes"),
                        "adapter_config.dangerously_skip_permissions"),
                arguments("claude_sandbox", Map.of("model", "claude; rm -rf /"), "adapter_config.model"),
                arguments("claude_sandbox", Map.of("timeout_sec", 5), "adapter_config.timeout_sec"),
                arguments("claude_sandbox", Map.of("memory", "lots"), "adapter_config.memory"),
                arguments("codex_sandbox", List.of(), "adapter_config"));
    }

    @ParameterizedTest
    @MethodSource("invalidCliAgents")
    void invalidCliAgentIsRefusedNamingTheFieldAndNothingIsStored(String type, Object config, String field) {
        String company = Api.createCompany("Strict " + UUID.randomUUID());
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", type, "adapter_config", config)),
                field);
        io.restassured.RestAssured.given().get("/api/companies/{c}/agents", company).then().statusCode(200)
                .body("$", hasSize(0));
    }

    @Test
    void localAgentsAreRefusedWhileTrimusLocalAdaptersIsOff() {
        String company = Api.createCompany("Careful " + UUID.randomUUID());
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", "claude_local",
                "adapter_config", Map.of())), "adapter_type")
                .body("detail", containsString("TRIMUS_LOCAL_ADAPTERS"))
                .body("detail", containsString("claude_sandbox"));
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", "codex_local",
                "adapter_config", Map.of("command", "codex"))), "adapter_type")
                .body("detail", containsString("TRIMUS_LOCAL_ADAPTERS"));
        io.restassured.RestAssured.given().get("/api/companies/{c}/agents", company).then().body("$", hasSize(0));
    }

    @Test
    void aSandboxRunWithoutItsProviderKeyIsAConflictAndNothingIsQueued() {
        String company = Api.createCompany("Keyless " + UUID.randomUUID());
        String claude = Api.createAgent(company, "claude_sandbox", Map.of());
        String codex = Api.createAgent(company, "codex_sandbox", Map.of());
        Api.setSecret(company, "SOMETHING_ELSE", providerKey("x-"));

        assertProblem(Api.postRun(company, claude, Map.of("input", "fix the build")), 409)
                .body("detail", containsString("ANTHROPIC_API_KEY"));
        // the claude key is no use to codex
        Api.setSecret(company, "ANTHROPIC_API_KEY", providerKey("sk-ant-"));
        assertProblem(Api.postRun(company, codex, Map.of("input", "fix the build")), 409)
                .body("detail", containsString("OPENAI_API_KEY"));
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));
        assertThat(Db.texts("select id::text from run.run where company_id = ?", UUID.fromString(company))).isEmpty();
    }

    static Stream<Object> bodiesWithoutAPrompt() {
        return Stream.of(Map.of(), Map.of("input", "   "), Map.of("issue", Map.of("title", " ", "body", "")));
    }

    @ParameterizedTest
    @MethodSource("bodiesWithoutAPrompt")
    void aCliRunWithoutAPromptIsRefusedAndNothingIsQueued(Object body) {
        String company = Api.createCompany("Mute " + UUID.randomUUID());
        String agent = Api.createAgent(company, "claude_sandbox", Map.of());
        Api.setSecret(company, "ANTHROPIC_API_KEY", providerKey("sk-ant-"));
        assertInvalidField(Api.postRun(company, agent, body), "input");
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));
    }

    @Test
    void theProviderKeyTravelsSealedForTheRunOnly() throws Exception {
        String company = Api.createCompany("Keyed " + UUID.randomUUID());
        String agent = Api.createAgent(company, "claude_sandbox", Map.of("model", "claude-sonnet-4-5"));
        String key = providerKey("sk-ant-api03-");
        Api.setSecret(company, "ANTHROPIC_API_KEY", key);

        String run = Api.startRun(company, agent,
                Map.of("issue", Map.of("id", "TRI-7", "title", "Fix the flaky test"), "input", "be brief"));
        ConsumerRecord<String, String> record = kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        JsonNode event = JSON.readTree(record.value());
        assertThat(event.get("adapter_type").asText()).isEqualTo("claude_sandbox");
        assertThat(event.get("input").asText()).isEqualTo("be brief");
        assertThat(event.get("issue").get("title").asText()).isEqualTo("Fix the flaky test");
        assertThat(record.value()).doesNotContain(key).doesNotContain(key.substring(13));
        for (Header header : record.headers()) {
            assertThat(new String(header.value(), StandardCharsets.UTF_8)).doesNotContain(key);
        }

        JsonNode secrets = event.get("secrets");
        assertThat(secrets.isObject()).isTrue();
        assertThat(secrets.size()).isEqualTo(1);
        Map<String, String> sealed = Map.of("ANTHROPIC_API_KEY", secrets.get("ANTHROPIC_API_KEY").asText());
        assertThat(Sealed.open(company, agent, run, sealed))
                .containsExactly(Map.entry("ANTHROPIC_API_KEY", key));
        assertThatThrownBy(() -> Sealed.open(company, agent, UUID.randomUUID().toString(), sealed))
                .isInstanceOf(SecretBox.WrongKeyException.class);
        byte[] otherKey = new byte[32];
        new SecureRandom().nextBytes(otherKey);
        assertThatThrownBy(() -> new DispatchSecrets(EncryptionKey.parse(Base64.getEncoder().encodeToString(otherKey))
                .dispatchKey()).open(UUID.fromString(company), UUID.fromString(agent), UUID.fromString(run), sealed)).isInstanceOf(SecretBox.WrongKeyException.class);

        // neither the outbox row the event was published from nor the run itself holds the key
        List<String> outbox = Db.texts("select payload from run.outbox_event where message_key = ?", run);
        assertThat(outbox).hasSize(1);
        assertThat(outbox.get(0)).doesNotContain(key).contains(secrets.get("ANTHROPIC_API_KEY").asText());
        Api.getRun(company, run).statusCode(200).body("adapter_type", equalTo("claude_sandbox"))
                .body(org.hamcrest.Matchers.not(containsString(key)));
    }

    @Test
    void aCodexRunCarriesItsOpenAiKey() throws Exception {
        String company = Api.createCompany("Codexed " + UUID.randomUUID());
        String agent = Api.createAgent(company, "codex_sandbox", Map.of());
        String anthropic = providerKey("sk-ant-");
        String openai = providerKey("sk-proj-");
        Api.setSecret(company, "ANTHROPIC_API_KEY", anthropic);
        Api.setSecret(company, "OPENAI_API_KEY", openai);

        String run = Api.startRun(company, agent, Map.of("input", "add a test"));
        JsonNode secrets = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value()).get("secrets");
        assertThat(secrets.size()).isEqualTo(1);
        assertThat(Sealed.open(company, agent, run,
                Map.of("OPENAI_API_KEY", secrets.get("OPENAI_API_KEY").asText())))
                .containsExactly(Map.entry("OPENAI_API_KEY", openai));
    }

    @Test
    void apiKeySecretNamesTheSecretTheRunUses() throws Exception {
        String company = Api.createCompany("Named keys " + UUID.randomUUID());
        String agent = Api.createAgent(company, "claude_sandbox", Map.of("api_key_secret", "MY_KEY"));
        String defaultKey = providerKey("sk-ant-default-");
        String myKey = providerKey("sk-ant-mine-");
        Api.setSecret(company, "ANTHROPIC_API_KEY", defaultKey);

        // the default secret does not stand in for the named one
        assertProblem(Api.postRun(company, agent, Map.of("input", "go")), 409)
                .body("detail", containsString("MY_KEY"));
        Api.listRuns(company).body("$", hasSize(0));

        Api.setSecret(company, "MY_KEY", myKey);
        String run = Api.startRun(company, agent, Map.of("input", "go"));
        ConsumerRecord<String, String> record = kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        JsonNode secrets = JSON.readTree(record.value()).get("secrets");
        // it still becomes the variable the CLI reads
        assertThat(secrets.size()).isEqualTo(1);
        assertThat(Sealed.open(company, agent, run,
                Map.of("ANTHROPIC_API_KEY", secrets.get("ANTHROPIC_API_KEY").asText())))
                .containsExactly(Map.entry("ANTHROPIC_API_KEY", myKey));
        assertThat(record.value()).doesNotContain(myKey).doesNotContain(defaultKey);
    }

    @Test
    void aReplacedKeyIsWhatTheNextRunCarries() throws Exception {
        String company = Api.createCompany("Rotating " + UUID.randomUUID());
        String agent = Api.createAgent(company, "claude_sandbox", Map.of());
        Api.setSecret(company, "ANTHROPIC_API_KEY", providerKey("sk-ant-old-"));
        String rotated = providerKey("sk-ant-new-");
        Api.putSecret(company, "ANTHROPIC_API_KEY", Map.of("value", rotated)).statusCode(200);

        String run = Api.startRun(company, agent, Map.of("input", "go"));
        JsonNode secrets = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value()).get("secrets");
        assertThat(Sealed.open(company, agent, run,
                Map.of("ANTHROPIC_API_KEY", secrets.get("ANTHROPIC_API_KEY").asText())))
                .containsExactly(Map.entry("ANTHROPIC_API_KEY", rotated));
    }

    @Test
    void aDockerRunCarriesNoSecrets() throws Exception {
        String company = Api.createCompany("Plain docker " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest"));
        Api.setSecret(company, "ANTHROPIC_API_KEY", providerKey("sk-ant-"));
        String run = Api.startRun(company, agent, Map.of());
        JsonNode event = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value());
        assertThat(event.path("secrets").size()).isZero();
    }
}
