package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.RunRequested;
import io.trimus.events.Topics;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Workers belong to companies: the operator grants worker tags to a company, and a remote agent on a tag its company
 * does not hold is refused, at creation and (once revoked) at every run, through the API, PostgreSQL and Kafka.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class WorkerTagGrantTest {
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final KafkaTopics kafka = KafkaTopics.shared();

    private static Map<String, Object> remoteDocker(String tag) {
        return Map.of("name", "gpu-echo", "adapter_type", "remote", "adapter_config", Map.of("worker_tag", tag,
                "adapter_type", "docker", "adapter_config", Map.of("image", "busybox:1.36")));
    }

    @Test
    void theOperatorGrantsListsAndRevokesWorkerTags() {
        String company = Api.createCompany("Granted " + UUID.randomUUID());

        Api.putWorkerTag(company, "gpu").statusCode(200).body("tag", equalTo("gpu"))
                .body("granted_at", notNullValue());
        String grantedAt = Api.putWorkerTag(company, "gpu").statusCode(200).extract().path("granted_at");
        Api.grantWorkerTag(company, "eu-build.2");
        Api.listWorkerTags(company).statusCode(200).body("worker_tags.tag", org.hamcrest.Matchers.contains("eu-build.2",
                "gpu")).body("worker_tags.find { it.tag == 'gpu' }.granted_at", equalTo(grantedAt));

        Api.revokeWorkerTag(company, "gpu").statusCode(204);
        assertProblem(Api.revokeWorkerTag(company, "gpu"), 404).body("detail", containsString("gpu"));
        Api.listWorkerTags(company).statusCode(200).body("worker_tags", hasSize(1));
        // another company holds nothing of it
        Api.listWorkerTags(Api.createCompany("Other " + UUID.randomUUID())).body("worker_tags", hasSize(0));
    }

    @Test
    void aBadTagOrAnUnknownCompanyIsAProblem() {
        String company = Api.createCompany("Strict tags " + UUID.randomUUID());
        assertInvalidField(Api.putWorkerTag(company, "-gpu"), "tag");
        assertInvalidField(Api.putWorkerTag(company, "x".repeat(65)), "tag");
        assertProblem(Api.putWorkerTag(UUID.randomUUID().toString(), "gpu"), 404);
        assertProblem(Api.listWorkerTags(UUID.randomUUID().toString()), 404);
        assertInvalidField(Api.putWorkerTag("not-a-uuid", "gpu"), "company_id");
        Api.listWorkerTags(company).body("worker_tags", hasSize(0));
    }

    @Test
    void aRemoteAgentOnATagItsCompanyWasNotGrantedIsRefused() {
        String company = Api.createCompany("Ungranted " + UUID.randomUUID());
        String other = Api.createCompany("Granted elsewhere " + UUID.randomUUID());
        Api.grantWorkerTag(other, "gpu");

        assertInvalidField(Api.postAgent(company, remoteDocker("gpu")), "adapter_config.worker_tag")
                .body("detail", containsString("PUT /api/companies/" + company + "/worker-tags/gpu"));
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));
        org.hamcrest.MatcherAssert.assertThat(io.restassured.RestAssured.given()
                .get("/api/companies/{c}/agents", company).then().extract().jsonPath().getList("$"), hasSize(0));

        Api.grantWorkerTag(company, "gpu");
        Api.postAgent(company, remoteDocker("gpu")).statusCode(201);
    }

    @Test
    void aRunOfARemoteAgentWhoseGrantWasRevokedIsRefusedAndNothingIsQueued() {
        String company = Api.createCompany("Revoked " + UUID.randomUUID());
        Api.grantWorkerTag(company, "gpu");
        String agent = Api.postAgent(company, remoteDocker("gpu")).statusCode(201).extract().path("id");

        Api.revokeWorkerTag(company, "gpu").statusCode(204);

        assertInvalidField(Api.postRun(company, agent, Map.of("input", "go")), "adapter_config.worker_tag")
                .body("detail", containsString("not granted"));
        Api.listRuns(company).statusCode(200).body("$", hasSize(0));
        assertThat(Db.texts("select id::text from run.run where agent_id = ?::uuid", agent)).isEmpty();
        assertThat(Db.texts("select id::text from run.outbox_event where topic <> 'trimus.audit' and payload like ?",
                "%" + agent + "%"))
                .isEmpty();

        Api.grantWorkerTag(company, "gpu");
        Api.startRun(company, agent, Map.of("input", "go"));
    }

    @Test
    void aRemoteRunCarriesRunServicesMacOverWhatTheWorkerRunsForItsCompanyAndTag() throws Exception {
        String company = Api.createCompany("Issued " + UUID.randomUUID());
        Api.grantWorkerTag(company, "gpu");
        String agent = Api.postAgent(company, remoteDocker("gpu")).statusCode(201).extract().path("id");

        String run = Api.startRun(company, agent, Map.of("input", "go"));
        RunRequested event = JSON.readValue(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value(),
                RunRequested.class);
        RunRequested asTheWorkerGetsIt = RemoteAdapterConfig.parse(event.adapterConfig()).inner(event);

        assertThat(event.issuerMac()).isNotBlank();
        assertThat(Sealed.macs().issued(asTheWorkerGetsIt, "gpu")).isTrue();
        assertThat(Sealed.macs().issued(asTheWorkerGetsIt, "cpu")).isFalse();
        assertThat(Sealed.macs().issued(new RunRequested(event.id(), event.runId(), UUID.randomUUID(),
                event.agentId(), asTheWorkerGetsIt.adapterType(), asTheWorkerGetsIt.adapterConfig(), event.issue(),
                event.input(), event.requestedAt(), event.secrets(), event.issuerMac()), "gpu")).isFalse();
    }
}
