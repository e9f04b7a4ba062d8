package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.events.Topics;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Proves masked secrets in run-service through the API, PostgreSQL and Kafka: a PUT's masked/hosts/headers are checked
 * (400 naming the field, nothing stored or changed), normalised and listed; a run of a sandboxed or lambda agent
 * carries each masked secret's scope under its variable next to the value, which stays sealed; a run of a host-process
 * or remote agent that would take a masked secret is a 409 naming it, nothing queued.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class MaskedSecretTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();
    private static final String KEY = "ANTHROPIC_API_KEY";
    private static final Map<String, Object> RUN = Map.of("input", "fix the build");

    private static String providerKey() {
        return "sk-ant-api03-" + UUID.randomUUID().toString().replace("-", "");
    }

    private static Map<String, Object> masked(String value, Object hosts, Object headers) {
        Map<String, Object> body = new HashMap<>();
        body.put("value", value);
        body.put("masked", true);
        if (hosts != null) {
            body.put("hosts", hosts);
        }
        if (headers != null) {
            body.put("headers", headers);
        }
        return body;
    }

    private static List<String> storedRows(String company) {
        return Db.texts("select name || ':' || masked || ':' || coalesce(array_to_string(hosts, ','), '-') || ':'"
                + " || coalesce(array_to_string(headers, ','), '-') from run.company_secret where company_id = ?",
                UUID.fromString(company));
    }

    private static void assertNothingQueuedFor(String agent) {
        assertThat(Db.texts("select id::text from run.run where agent_id = ?", UUID.fromString(agent))).isEmpty();
        assertThat(Db.texts("select id::text from run.outbox_event where topic <> 'trimus.audit' and payload like ?",
                "%" + agent + "%"))
                .isEmpty();
    }

    static Stream<Arguments> refusedPuts() {
        String ok = providerKey();
        List<String> tooManyHosts = new ArrayList<>();
        for (int i = 0; i < 33; i++) {
            tooManyHosts.add("h" + i + ".example.com");
        }
        Map<String, Object> hostsWithoutMask = new HashMap<>(Map.of("value", ok, "hosts", List.of("api.anthropic.com")));
        Map<String, Object> headersWithoutMask = new HashMap<>(Map.of("value", ok, "headers", List.of("x-api-key")));
        Map<String, Object> maskedFalseWithHosts = new HashMap<>(hostsWithoutMask);
        maskedFalseWithHosts.put("masked", false);
        List<String> nullHost = new ArrayList<>();
        nullHost.add(null);
        return Stream.of(
                arguments("masked without hosts", masked(ok, null, null), "hosts"),
                arguments("masked with no hosts", masked(ok, List.of(), null), "hosts"),
                arguments("hosts without masked", hostsWithoutMask, "hosts"),
                arguments("headers without masked", headersWithoutMask, "headers"),
                arguments("hosts with masked false", maskedFalseWithHosts, "hosts"),
                arguments("more than 32 hosts", masked(ok, tooManyHosts, null), "hosts"),
                arguments("a null host", masked(ok, nullHost, null), "hosts[0]"),
                arguments("every host", masked(ok, List.of("api.anthropic.com", "*"), null), "hosts[1]"),
                arguments("an IPv4 address", masked(ok, List.of("169.254.169.254"), null), "hosts[0]"),
                arguments("an IPv6 address", masked(ok, List.of("[::1]"), null), "hosts[0]"),
                arguments("a port", masked(ok, List.of("api.anthropic.com:443"), null), "hosts[0]"),
                arguments("a URL", masked(ok, List.of("https://api.anthropic.com"), null), "hosts[0]"),
                arguments("a top-level wildcard", masked(ok, List.of("*.com"), null), "hosts[0]"),
                arguments("a wildcard over a public suffix", masked(ok, List.of("api.github.com", "*.co.uk"), null),
                        "hosts[1]"),
                arguments("a wildcard over a private public suffix", masked(ok, List.of("*.github.io"), null),
                        "hosts[0]"),
                arguments("no host name", masked(ok, List.of("api anthropic"), null), "hosts[0]"),
                arguments("a host over 253", masked(ok, List.of("a".repeat(250) + ".com"), null), "hosts[0]"),
                arguments("a host as a number", masked(ok, List.of(443), null), "hosts[0]"),
                arguments("no headers", masked(ok, List.of("api.anthropic.com"), List.of()), "headers"),
                arguments("more than 8 headers", masked(ok, List.of("api.anthropic.com"),
                        List.of("a", "b", "c", "d", "e", "f", "g", "h", "i")), "headers"),
                arguments("Proxy-Authorization", masked(ok, List.of("api.anthropic.com"),
                        List.of("x-api-key", "Proxy-Authorization")), "headers[1]"),
                arguments("no header name", masked(ok, List.of("api.anthropic.com"), List.of("x api key")),
                        "headers[0]"),
                arguments("a header with a colon", masked(ok, List.of("api.anthropic.com"), List.of("x-api-key:")),
                        "headers[0]"),
                arguments("a header over 128", masked(ok, List.of("api.anthropic.com"), List.of("x".repeat(129))),
                        "headers[0]"),
                arguments("a value under 16 characters", masked("sk-ant-12345678", List.of("api.anthropic.com"),
                        null), "value"),
                arguments("a value over 4096 characters", masked("k".repeat(4097), List.of("api.anthropic.com"),
                        null), "value"),
                arguments("a value with a space", masked("Bearer " + ok, List.of("api.anthropic.com"), null),
                        "value"),
                arguments("a value with a newline", masked(ok + "\n", List.of("api.anthropic.com"), null), "value"),
                arguments("a value with a control character", masked(ok + "\u0007", List.of("api.anthropic.com"),
                        null), "value"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedPuts")
    void aPutBreakingTheMaskRulesIsRefusedNamingTheFieldAndNothingIsStoredOrChanged(String description,
                                                                                     Map<String, Object> body,
                                                                                     String field) {
        String company = Api.createCompany("Mask rules " + UUID.randomUUID());
        String plain = providerKey();
        Api.setSecret(company, "EXISTING", plain);
        List<String> before = storedRows(company);
        String value = (String) body.get("value");

        assertInvalidField(Api.putSecret(company, KEY, body), field).body(not(containsString(value.strip())));
        assertInvalidField(Api.putSecret(company, "EXISTING", body), field);

        Api.listSecrets(company).statusCode(200).body("secrets.name", equalTo(List.of("EXISTING")))
                .body("secrets[0].masked", equalTo(false));
        assertThat(storedRows(company)).isEqualTo(before).containsExactly("EXISTING:false:-:-");
    }

    @Test
    void theListShowsEachSecretsMaskNormalisedAndAPutReplacesIt() {
        String company = Api.createCompany("Mask list " + UUID.randomUUID());
        String value = providerKey();
        Api.putSecret(company, KEY, masked(value, List.of("API.Anthropic.com.", "api.anthropic.com"), null))
                .statusCode(201).body("masked", equalTo(true))
                .body("hosts", equalTo(List.of("api.anthropic.com")))
                .body("headers", equalTo(List.of("authorization", "x-api-key")));
        Api.putSecret(company, "GITHUB_TOKEN", masked("ghp_" + "a1B2".repeat(9), List.of("*.GitHub.com", "github.com"),
                List.of("Authorization", "authorization"))).statusCode(201);
        Api.setSecret(company, "PLAIN", providerKey());

        String listed = Api.listSecrets(company).statusCode(200)
                .body("secrets.name", equalTo(List.of(KEY, "GITHUB_TOKEN", "PLAIN")))
                .body("secrets.masked", equalTo(List.of(true, true, false)))
                .body("secrets[0].hosts", equalTo(List.of("api.anthropic.com")))
                .body("secrets[0].headers", equalTo(List.of("authorization", "x-api-key")))
                .body("secrets[1].hosts", equalTo(List.of("*.github.com", "github.com")))
                .body("secrets[1].headers", equalTo(List.of("authorization")))
                .body("secrets[2].hosts", equalTo(null))
                .body("secrets[2].headers", equalTo(null))
                .extract().asString();
        assertThat(listed).doesNotContain(value).doesNotContain("a1B2a1B2");

        Api.putSecret(company, KEY, Map.of("value", value)).statusCode(200).body("masked", equalTo(false))
                .body("hosts", equalTo(null));
        Api.putSecret(company, "GITHUB_TOKEN", masked("ghp_" + "a1B2".repeat(9), List.of("api.github.com"),
                List.of("X-Api-Key"))).statusCode(200);
        Api.listSecrets(company).statusCode(200)
                .body("secrets.masked", equalTo(List.of(false, true, false)))
                .body("secrets[1].hosts", equalTo(List.of("api.github.com")))
                .body("secrets[1].headers", equalTo(List.of("x-api-key")));
        assertThat(storedRows(company)).contains(KEY + ":false:-:-");
    }

    @Test
    void aSandboxRunCarriesTheMaskedSecretsScopeUnderItsVariableAndTheValueOnlySealed() throws Exception {
        String company = Api.createCompany("Masked run " + UUID.randomUUID());
        String key = providerKey();
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        String plain = "plain-" + UUID.randomUUID();
        Api.putSecret(company, KEY, masked(key, List.of("api.anthropic.com"), null)).statusCode(201);
        Api.putSecret(company, "GITHUB_TOKEN", masked(token, List.of("*.github.com", "github.com"),
                List.of("Authorization"))).statusCode(201);
        Api.setSecret(company, "NPM_TOKEN", plain);
        String agent = Api.createAgent(company, "claude_sandbox", Map.of("secret_env",
                Map.of("GH_TOKEN", "GITHUB_TOKEN", "NPM_TOKEN", "NPM_TOKEN")));

        String run = Api.startRun(company, agent, RUN);
        String payload = kafka.awaitRecord(Topics.RUN_REQUESTED, run).value();
        JsonNode event = JSON.readTree(payload);

        assertThat(payload).doesNotContain(key).doesNotContain(token).doesNotContain(plain);
        JsonNode masks = event.get("masked");
        assertThat(masks.size()).isEqualTo(2);
        assertThat(JSON.convertValue(masks.get(KEY), Map.class)).isEqualTo(Map.of("secret", KEY,
                "hosts", List.of("api.anthropic.com"), "headers", List.of("authorization", "x-api-key")));
        assertThat(JSON.convertValue(masks.get("GH_TOKEN"), Map.class)).isEqualTo(Map.of("secret", "GITHUB_TOKEN",
                "hosts", List.of("*.github.com", "github.com"), "headers", List.of("authorization")));
        assertThat(masks.has("NPM_TOKEN")).isFalse();
        JsonNode sealed = event.get("secrets");
        assertThat(Sealed.open(company, agent, run, Map.of(KEY, sealed.get(KEY).asText(),
                "GH_TOKEN", sealed.get("GH_TOKEN").asText(), "NPM_TOKEN", sealed.get("NPM_TOKEN").asText())))
                .isEqualTo(Map.of(KEY, key, "GH_TOKEN", token, "NPM_TOKEN", plain));
        assertThat(Db.texts("select payload::text from run.outbox_event where message_key = ?", run))
                .hasSize(1).noneMatch(row -> row.contains(key) || row.contains(token));
    }

    @Test
    void dockerAndLambdaRunsMayTakeAMaskedSecret() throws Exception {
        String company = Api.createCompany("Masked ok " + UUID.randomUUID());
        String token = "tok_" + UUID.randomUUID().toString().replace("-", "");
        Api.putSecret(company, "AGENT_TOKEN", masked(token, List.of("agent.example.com"), List.of("X-Api-Key")))
                .statusCode(201);
        String docker = Api.createDockerAgent(company, Map.of("image", "busybox:1.36",
                "secret_env", Map.of("TOKEN", "AGENT_TOKEN")));
        String lambda = Api.createAgent(company, "lambda", Map.of("endpoint_url", "https://agent.example.com/run",
                "auth_header", Map.of("name", "X-Api-Key", "secret", "AGENT_TOKEN")));

        JsonNode dockerRun = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED,
                Api.startRun(company, docker, RUN)).value());
        assertThat(dockerRun.get("masked").get("TOKEN").get("secret").asText()).isEqualTo("AGENT_TOKEN");
        JsonNode lambdaRun = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED,
                Api.startRun(company, lambda, RUN)).value());
        assertThat(lambdaRun.get("masked").get(LambdaAdapterConfig.AUTH_HEADER_SECRET).get("headers"))
                .hasSize(1).first().extracting(JsonNode::asText).isEqualTo("x-api-key");
        assertThat(lambdaRun.toString()).doesNotContain(token);
    }

    @Test
    void aRunOfAHostProcessAgentThatWouldTakeAMaskedSecretIsRefusedAndNothingIsQueued() {
        String company = Api.createCompany("Masked local " + UUID.randomUUID());
        Api.putSecret(company, KEY, masked(providerKey(), List.of("api.anthropic.com"), null)).statusCode(201);
        Api.putSecret(company, "OPENAI_API_KEY", masked("sk-proj-" + UUID.randomUUID(), List.of("api.openai.com"),
                null)).statusCode(201);

        for (String type : List.of("claude_local", "codex_local")) {
            String agent = localAgent(company, type);
            assertProblem(Api.postRun(company, agent, RUN), 409)
                    .body("detail", allOf(containsString(type.startsWith("claude") ? KEY : "OPENAI_API_KEY"),
                            containsString("is masked: only sandboxed agents (docker, claude_sandbox, codex_sandbox)"
                                    + " and lambda can use it; a host process or remote worker would get the real"
                                    + " value"), containsString(type)));
            assertNothingQueuedFor(agent);
        }
    }

    @Test
    void aRunOfARemoteAgentThatWouldTakeAMaskedSecretIsRefusedAndNothingIsQueued() {
        String company = Api.createCompany("Masked remote " + UUID.randomUUID());
        Api.grantWorkerTag(company, "gpu");
        Api.putSecret(company, "GITHUB_TOKEN", masked("ghp_" + UUID.randomUUID().toString().replace("-", ""),
                List.of("*.github.com"), null)).statusCode(201);
        Api.putSecret(company, "AGENT_TOKEN", masked("tok_" + UUID.randomUUID().toString().replace("-", ""),
                List.of("agent.example.com"), null)).statusCode(201);
        String docker = Api.createAgent(company, "remote", Map.of("worker_tag", "gpu", "adapter_type", "docker",
                "adapter_config", Map.of("image", "busybox:1.36", "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN"))));
        String lambda = Api.createAgent(company, "remote", Map.of("worker_tag", "gpu", "adapter_type", "lambda",
                "adapter_config", Map.of("endpoint_url", "https://agent.example.com/run",
                        "auth_header", Map.of("name", "Authorization", "secret", "AGENT_TOKEN"))));

        assertProblem(Api.postRun(company, docker, RUN), 409).body("detail", allOf(containsString("GITHUB_TOKEN"),
                containsString("is masked"), containsString("remote worker would get the real value")));
        assertProblem(Api.postRun(company, lambda, RUN), 409).body("detail", allOf(containsString("AGENT_TOKEN"),
                containsString("is masked")));
        assertNothingQueuedFor(docker);
        assertNothingQueuedFor(lambda);
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));
    }

    @Test
    void plainSecretsTravelAsBeforeWithNoMask() throws Exception {
        String company = Api.createCompany("Plain run " + UUID.randomUUID());
        String key = providerKey();
        Api.setSecret(company, KEY, key);
        Api.listSecrets(company).statusCode(200).body("secrets[0].masked", equalTo(false));
        String agent = Api.createAgent(company, "claude_sandbox", Map.of());

        String run = Api.startRun(company, agent, RUN);
        JsonNode event = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value());
        assertThat(event.path("masked").isMissingNode() || event.get("masked").isEmpty()).isTrue();
        assertThat(Sealed.open(company, agent, run, Map.of(KEY, event.get("secrets").get(KEY).asText())))
                .isEqualTo(Map.of(KEY, key));
    }

    /** A host-process agent as one created while TRIMUS_LOCAL_ADAPTERS allowed it (the tests run with it off). */
    private static String localAgent(String company, String type) {
        UUID id = UUID.randomUUID();
        Db.update("insert into run.agent (id, company_id, name, adapter_type, adapter_config, created_at)"
                        + " values (?, ?, ?, ?, '{}'::jsonb, ?)", id, UUID.fromString(company), type + " agent", type,
                Timestamp.from(Instant.now()));
        given().contentType(ContentType.JSON).get("/api/companies/{c}/agents/{a}", company, id).then().statusCode(200)
                .body("adapter_type", equalTo(type));
        return id.toString();
    }
}
