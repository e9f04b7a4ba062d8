package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * Proves that a company secret reaches only the runs of the agents it is granted to, through the API, PostgreSQL and
 * Kafka: a granted agent's run carries it sealed, any other agent's run is a 409 with nothing queued, a put without
 * agents grants it to every agent, a put replaces the grant, and agents that are not the company's are refused with
 * nothing stored.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SecretGrantTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();
    private static final String KEY = "ANTHROPIC_API_KEY";
    private static final Map<String, Object> RUN = Map.of("input", "fix the build");

    private static String providerKey() {
        return "sk-ant-" + UUID.randomUUID().toString().replace("-", "");
    }

    private static Map<String, Object> secret(String value, List<String> agents) {
        Map<String, Object> body = new HashMap<>();
        body.put("value", value);
        body.put("agents", agents);
        return body;
    }

    /** The provider key the run carries, opened the way the adapter opens it. */
    private static String sealedKeyOf(String run) throws Exception {
        JsonNode event = JSON.readTree(kafka.awaitRecord(Topics.RUN_REQUESTED, run).value());
        return Sealed.open(event.get("company_id").asText(), event.get("agent_id").asText(), run,
                Map.of(KEY, event.get("secrets").get(KEY).asText())).get(KEY);
    }

    private static void assertRefusedAndNothingQueued(String company, String agent) {
        assertProblem(Api.postRun(company, agent, RUN), 409)
                .body("detail", allOf(containsString(KEY), containsString("not granted"), containsString(agent)));
        assertNothingQueuedFor(agent);
    }

    private static void assertNothingQueuedFor(String agent) {
        assertThat(Db.texts("select id::text from run.run where agent_id = ?", UUID.fromString(agent))).isEmpty();
        assertThat(Db.texts("select id::text from run.outbox_event where topic <> 'trimus.audit' and payload like ?",
                "%" + agent + "%"))
                .isEmpty();
    }

    private static List<String> grantRows(String company) {
        return Db.texts("select secret_name || ':' || agent_id from run.company_secret_grant where company_id = ?",
                UUID.fromString(company));
    }

    @Test
    void aSecretGrantedToOneAgentIsSealedIntoItsRunsAndRefusedToAnyOther() throws Exception {
        String company = Api.createCompany("Scoped " + UUID.randomUUID());
        String granted = Api.createAgent(company, "claude_sandbox", Map.of());
        String other = Api.createAgent(company, "claude_sandbox", Map.of());
        String key = providerKey();

        Api.putSecret(company, KEY, secret(key, List.of(granted))).statusCode(201)
                .body("agents", equalTo(List.of(granted)));
        Api.listSecrets(company).statusCode(200).body("secrets[0].agents", equalTo(List.of(granted)));

        String run = Api.startRun(company, granted, RUN);
        assertThat(sealedKeyOf(run)).isEqualTo(key);

        assertRefusedAndNothingQueued(company, other);
        Api.listRuns(company).statusCode(200).body("id", equalTo(List.of(run)));
    }

    @Test
    void aSecretPutWithoutAgentsIsForEveryAgentOfTheCompany() throws Exception {
        String company = Api.createCompany("Open " + UUID.randomUUID());
        String first = Api.createAgent(company, "claude_sandbox", Map.of());
        String key = providerKey();

        Api.putSecret(company, KEY, Map.of("value", key)).statusCode(201).body("agents", nullValue());
        String second = Api.createAgent(company, "claude_sandbox", Map.of()); // created after the put: granted too
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(1)).body("secrets[0].agents", nullValue());

        assertThat(sealedKeyOf(Api.startRun(company, first, RUN))).isEqualTo(key);
        assertThat(sealedKeyOf(Api.startRun(company, second, RUN))).isEqualTo(key);
        assertThat(grantRows(company)).isEmpty();
    }

    @Test
    void aPutReplacesTheGrant() throws Exception {
        String company = Api.createCompany("Regranted " + UUID.randomUUID());
        String a = Api.createAgent(company, "claude_sandbox", Map.of());
        String b = Api.createAgent(company, "claude_sandbox", Map.of());

        Api.putSecret(company, KEY, secret(providerKey(), List.of(a))).statusCode(201);
        assertRefusedAndNothingQueued(company, b);

        String forB = providerKey();
        Api.putSecret(company, KEY, secret(forB, List.of(b, b))).statusCode(200)
                .body("agents", equalTo(List.of(b)));
        assertThat(sealedKeyOf(Api.startRun(company, b, RUN))).isEqualTo(forB);
        assertRefusedAndNothingQueued(company, a);
        assertThat(grantRows(company)).containsExactly(KEY + ":" + b);

        String forAll = providerKey();
        Api.putSecret(company, KEY, Map.of("value", forAll)).statusCode(200).body("agents", nullValue());
        assertThat(sealedKeyOf(Api.startRun(company, a, RUN))).isEqualTo(forAll);
        assertThat(grantRows(company)).isEmpty();

        Api.putSecret(company, KEY, secret(providerKey(), List.of(b, a))).statusCode(200);
        List<String> both = Api.listSecrets(company).statusCode(200).extract().path("secrets[0].agents");
        assertThat(both).containsExactlyInAnyOrder(a, b);
        Api.deleteSecret(company, KEY).statusCode(204);
        assertThat(grantRows(company)).isEmpty();
    }

    @Test
    void agentsThatAreNotTheCompanysAreRefusedNamingTheirPlaceAndNothingIsStored() {
        String company = Api.createCompany("Granting " + UUID.randomUUID());
        String own = Api.createAgent(company, "claude_sandbox", Map.of());
        String foreignCompany = Api.createCompany("Foreign " + UUID.randomUUID());
        String foreign = Api.createAgent(foreignCompany, "claude_sandbox", Map.of());
        String unknown = UUID.randomUUID().toString();

        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), List.of(own, own, foreign))),
                "agents[2]").body("detail", containsString(foreign));
        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), List.of(unknown, own))), "agents[0]");
        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), List.of(own, "not-an-id"))),
                "agents[1]");
        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), List.of())), "agents");
        List<String> withNull = new ArrayList<>(List.of(own));
        withNull.add(null);
        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), withNull)), "agents[1]");
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(0));
        assertThat(grantRows(company)).isEmpty();

        // a refused put leaves the stored secret and its grant as they were
        String key = providerKey();
        Api.putSecret(company, KEY, secret(key, List.of(own))).statusCode(201);
        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), List.of(foreign))), "agents[0]");
        Api.listSecrets(company).statusCode(200).body("secrets[0].agents", equalTo(List.of(own)));
        assertThat(grantRows(company)).containsExactly(KEY + ":" + own);
        assertThat(grantRows(foreignCompany)).isEmpty();
    }

    @Test
    void theAgentsListIsBoundedAsSentAndDuplicatesCollapse() {
        String company = Api.createCompany("Bounded " + UUID.randomUUID());
        String agent = Api.createAgent(company, "claude_sandbox", Map.of());

        assertInvalidField(Api.putSecret(company, KEY, secret(providerKey(), Collections.nCopies(1001, agent))),
                "agents").body("detail", containsString("1000"));
        Api.listSecrets(company).statusCode(200).body("secrets", hasSize(0));

        Api.putSecret(company, KEY, secret(providerKey(), Collections.nCopies(1000, agent))).statusCode(201)
                .body("agents", equalTo(List.of(agent)));
        assertThat(grantRows(company)).containsExactly(KEY + ":" + agent);
    }
}
