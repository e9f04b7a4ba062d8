package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

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
 * Remote agents through the API, PostgreSQL and Kafka: the inner adapter's contract is checked on write, and a run
 * carries the inner adapter's secrets sealed, as a run of that adapter would, for the worker to open.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RemoteAgentRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    @Test
    void aRemoteAgentIsCreatedOffHostWithItsInnerAdapter() {
        String company = Api.createCompany("Remotes " + UUID.randomUUID());
        Api.grantWorkerTag(company, "gpu");
        String agent = Api.createAgent(company, "remote", Map.of("worker_tag", "gpu", "adapter_type", "docker",
                "adapter_config", Map.of("image", "busybox:1.36")));

        given().get("/api/companies/{c}/agents/{a}", company, agent).then().statusCode(200)
                .body("adapter_type", equalTo("remote"))
                .body("isolation", equalTo("off-host"))
                .body("adapter_config.worker_tag", equalTo("gpu"))
                .body("adapter_config.adapter_config.image", equalTo("busybox:1.36"));
    }

    @Test
    void anInvalidRemoteAgentIsRefusedNamingTheInnerField() {
        String company = Api.createCompany("Strict remotes " + UUID.randomUUID());
        Api.grantWorkerTag(company, "gpu");
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", "remote", "adapter_config",
                Map.of("worker_tag", "gpu", "adapter_type", "docker", "adapter_config", Map.of("pids_limit", 5)))),
                "adapter_config.adapter_config.image");
        assertInvalidField(Api.postAgent(company, Map.of("name", "a", "adapter_type", "remote", "adapter_config",
                Map.of("worker_tag", "gpu", "adapter_type", "remote", "adapter_config", Map.of()))),
                "adapter_config.adapter_type");
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
    }

    @Test
    void aRemoteLambdaRunCarriesItsAuthHeaderSealedAndWithoutItNothingIsQueued() throws Exception {
        String company = Api.createCompany("Remote lambda " + UUID.randomUUID());
        Api.grantWorkerTag(company, "eu");
        String agent = Api.createAgent(company, "remote", Map.of("worker_tag", "eu", "adapter_type", "lambda",
                "adapter_config", Map.of("endpoint_url", "https://agent.example.com/run",
                        "auth_header", Map.of("name", "Authorization", "secret", "AGENT_TOKEN"))));

        assertProblem(Api.postRun(company, agent, Map.of("input", "go")), 409)
                .body("detail", containsString("AGENT_TOKEN"));
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));

        String token = "Bearer remote-" + UUID.randomUUID();
        Api.setSecret(company, "AGENT_TOKEN", token);
        String run = Api.startRun(company, agent, Map.of("input", "go"));
        String value = kafka.awaitRecord(Topics.RUN_REQUESTED, run).value();
        JsonNode secrets = JSON.readTree(value).get("secrets");

        assertThat(value).doesNotContain(token.substring(7));
        assertThat(Sealed.open(company, agent, run,
                Map.of(LambdaAdapterConfig.AUTH_HEADER_SECRET, secrets.get("AUTH_HEADER").asText())))
                .containsExactly(Map.entry("AUTH_HEADER", token));
    }
}
