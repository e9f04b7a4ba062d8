package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * Lambda agents through the API, PostgreSQL and Kafka: created only with a valid adapter_config, and a run whose
 * agent names an auth header secret carries its value sealed for that run under AUTH_HEADER (a 409 and nothing queued
 * when the company has no such secret); an agent without one needs no secret and no prompt.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class LambdaAgentRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    @Test
    void aLambdaAgentIsCreatedOffHostWithItsConfigAsWritten() {
        String company = Api.createCompany("Lambdas " + UUID.randomUUID());
        Map<String, Object> config = Map.of("endpoint_url", "https://agent.example.com/run", "method", "PUT",
                "headers", Map.of("X-Team", "platform"),
                "auth_header", Map.of("name", "Authorization", "secret", "AGENT_TOKEN"),
                "timeout_ms", 60_000, "retries", 2, "backoff_ms", 500);
        String agent = Api.createAgent(company, "lambda", config);

        given().get("/api/companies/{c}/agents/{a}", company, agent).then().statusCode(200)
                .body("adapter_type", equalTo("lambda"))
                .body("isolation", equalTo("off-host"))
                .body("adapter_config.endpoint_url", equalTo("https://agent.example.com/run"))
                .body("adapter_config.auth_header.secret", equalTo("AGENT_TOKEN"));
    }

    @Test
    void anInvalidLambdaAgentIsRefusedNamingTheField() {
        String company = Api.createCompany("Strict lambdas " + UUID.randomUUID());
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", "lambda",
                "adapter_config", Map.of("endpoint_url", "file:///etc/passwd"))), "adapter_config.endpoint_url");
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", "lambda",
                "adapter_config", Map.of("endpoint_url", "https://a.example",
                        "headers", Map.of("Authorization", "Bearer plain")))), "adapter_config.headers.Authorization");
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void theAuthHeaderValueTravelsSealedForTheRunOnly() throws Exception {
        String company = Api.createCompany("Keyed lambda " + UUID.randomUUID());
        String agent = Api.createAgent(company, "lambda", Map.of("endpoint_url", "https://agent.example.com/run",
                "auth_header", Map.of("name", "Authorization", "secret", "AGENT_TOKEN")));
        String token = "Bearer lambda-" + UUID.randomUUID();
        Api.setSecret(company, "AGENT_TOKEN", token);
        Api.setSecret(company, "UNRELATED", "unrelated-" + UUID.randomUUID());

        String run = Api.startRun(company, agent, Map.of("input", "summarise"));
        ConsumerRecord<String, String> record = kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        JsonNode secrets = JSON.readTree(record.value()).get("secrets");

        assertThat(record.value()).doesNotContain(token).doesNotContain(token.substring(7));
        assertThat(secrets.size()).isEqualTo(1);
        String sealed = secrets.get(LambdaAdapterConfig.AUTH_HEADER_SECRET).asText();
        assertThat(Sealed.open(company, agent, run, Map.of(LambdaAdapterConfig.AUTH_HEADER_SECRET, sealed)))
                .containsExactly(Map.entry("AUTH_HEADER", token));
        List<String> outbox = Db.texts("select payload from run.outbox_event where message_key = ?", run);
        assertThat(outbox).singleElement().asString().doesNotContain(token);
    }

    @Test
    void aRunWithoutItsAuthHeaderSecretIsAConflictAndNothingIsQueued() {
        String company = Api.createCompany("Tokenless " + UUID.randomUUID());
        String agent = Api.createAgent(company, "lambda", Map.of("endpoint_url", "https://agent.example.com/run",
                "auth_header", Map.of("name", "X-Api-Key", "secret", "AGENT_KEY")));
        Api.setSecret(company, "OTHER_KEY", "other-" + UUID.randomUUID());

        assertProblem(Api.postRun(company, agent, Map.of("input", "go")), 409)
                .body("detail", containsString("AGENT_KEY"))
                .body("detail", containsString("X-Api-Key"));
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));
    }

    @Test
    void aLambdaAgentWithoutAuthHeaderNeedsNoSecretAndNoPrompt() throws Exception {
        String company = Api.createCompany("Open lambda " + UUID.randomUUID());
        String agent = Api.createAgent(company, "lambda", Map.of("endpoint_url", "http://agent.example.com/run"));
        Api.setSecret(company, "AGENT_TOKEN", "Bearer unused-" + UUID.randomUUID());

        String run = Api.startRun(company, agent, Map.of());
        JsonNode event = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value());

        assertThat(event.get("adapter_type").asText()).isEqualTo("lambda");
        assertThat(event.path("secrets").size()).isZero();
    }

}
