package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.testing.InfraControl;
import io.trimus.testing.RunServiceResource;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * egress-service's changes (allowlist replaced, egress policy set, egress CA rotated) leave their audit record on
 * trimus.audit with the caller and where the request came from, and run-service (a real one, in a child JVM) serves
 * them at GET /api/audit next to its own; a refused change leaves none.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = RunServiceResource.class, scope = TestResourceScope.GLOBAL)
class AuditTrailTest {
    private static final String FORWARDED = "198.51.100.4";
    private static final String AGENT = "egress-audit-test/2";

    private static KafkaCompanion kafka;
    private static ConsumerTask<String, String> topic;

    @BeforeAll
    static void readTheTopic() {
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        topic = kafka.consumeStrings().fromTopics(Topics.AUDIT);
    }

    @AfterAll
    static void close() {
        topic.close();
        kafka.close();
    }

    @Test
    void allowlistAndPolicyChangesReachTheTopicAndRunServicesAuditLog() {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Egress audited");
        String token = run.token(company, "admin");
        String admin = "Bearer " + token;

        as(admin).body(Map.of("entries", List.of("api.github.com", "registry.npmjs.org")))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
        as(admin).body(Map.of("entries", List.of("*.com")))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(400);
        as(admin).body(Map.of("entries", List.of("api.github.com", "*.pypi.org")))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
        as(admin).body(Map.of("mode", "report")).put("/api/companies/{c}/egress/policy", company)
                .then().statusCode(200);

        List<ConsumerRecord<String, String>> published = await().atMost(Duration.ofSeconds(60))
                .until(() -> onTopic(company), found -> found.size() >= 3);
        assertThat(published).hasSize(3);
        assertThat(published).extracting(r -> header(r, "ce_type")).containsOnly(EventTypes.AUDIT_RECORD);
        List<JsonPath> records = published.stream().map(r -> JsonPath.from(r.value())).toList();
        assertThat(records).extracting(r -> r.getString("action"))
                .containsExactly("allowlist.replaced", "allowlist.replaced", "egress_policy.set");
        JsonPath second = records.get(1);
        assertThat(second.getList("details.added")).containsExactly("*.pypi.org");
        assertThat(second.getList("details.removed")).containsExactly("registry.npmjs.org");
        assertThat(records.get(0).getList("details.added")).containsExactly("api.github.com", "registry.npmjs.org");
        assertThat(records.get(2).getString("details.mode")).isEqualTo("report");
        assertThat(records).allSatisfy(r -> {
            assertThat(r.getString("company_id")).isEqualTo(company);
            assertThat(r.getString("actor.kind")).isEqualTo("token");
            assertThat(r.getString("actor.name")).isEqualTo("admin");
            assertThat(r.getString("source.ip")).isEqualTo("127.0.0.1");
            assertThat(r.getString("source.forwarded_for")).isEqualTo(FORWARDED);
            assertThat(r.getString("source.user_agent")).isEqualTo(AGENT);
        });
        assertThat(published).extracting(ConsumerRecord::value).noneMatch(value -> value.contains(token));

        List<String> ids = records.stream().map(r -> r.getString("id")).toList();
        await().atMost(Duration.ofSeconds(60)).until(() -> runServiceAudit(admin, company).containsAll(ids));
        assertThat(runServiceAudit(admin, company)).containsSubsequence(ids.get(2), ids.get(1), ids.get(0));
    }

    @Test
    void anAgentsOwnListIsAuditedWhenSetAndWhenRemovedAndAViewerCannotChangeIt() {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Egress agent list audited");
        String admin = "Bearer " + run.token(company, "admin");
        String viewer = "Bearer " + run.token(company, "viewer");
        String otherAdmin = "Bearer " + run.token(run.company("Someone else"), "admin");
        String agent = java.util.UUID.randomUUID().toString();
        String path = "/api/companies/{c}/agents/{a}/egress/allowlist";

        as(viewer).body(Map.of("entries", List.of("x.example.com"))).put(path, company, agent).then().statusCode(403);
        as(otherAdmin).body(Map.of("entries", List.of("x.example.com"))).put(path, company, agent).then()
                .statusCode(404);
        as(viewer).get(path, company, agent).then().statusCode(200);
        as(admin).body(Map.of("entries", List.of("*.com"))).put(path, company, agent).then().statusCode(400);
        as(admin).body(Map.of("entries", List.of("api.github.com"))).put(path, company, agent).then().statusCode(200);
        as(admin).delete(path, company, agent).then().statusCode(204);
        as(admin).delete(path, company, agent).then().statusCode(204);

        List<ConsumerRecord<String, String>> published = await().atMost(Duration.ofSeconds(60))
                .until(() -> onTopic(company), found -> found.size() >= 2);
        assertThat(published).as("refused changes and a removal of nothing leave no record").hasSize(2);
        List<JsonPath> records = published.stream().map(r -> JsonPath.from(r.value())).toList();
        assertThat(records).extracting(r -> r.getString("action"))
                .containsExactly("allowlist.replaced", "allowlist.replaced");
        assertThat(records).allSatisfy(r -> {
            assertThat(r.getString("target.type")).isEqualTo("agent_allowlist");
            assertThat(r.getString("target.id")).isEqualTo(agent);
            assertThat(r.getString("actor.name")).isEqualTo("admin");
        });
        assertThat(records.get(0).getList("details.added")).containsExactly("api.github.com");
        assertThat(records.get(0).getBoolean("details.own_list")).isTrue();
        assertThat(records.get(1).getList("details.removed")).containsExactly("api.github.com");
        assertThat(records.get(1).getBoolean("details.own_list")).isFalse();
    }

    @Test
    void aCaRotationIsAPlatformRecordTheOperatorsRead() {
        String fingerprint = as(TestOperator.HEADER).post("/api/egress/ca/rotation").then().statusCode(201)
                .extract().path("fingerprint");

        ConsumerRecord<String, String> record = await().atMost(Duration.ofSeconds(60)).until(() -> topic.getRecords()
                .stream().filter(r -> r.value().contains(fingerprint)).findFirst(), Optional::isPresent).orElseThrow();
        JsonPath json = JsonPath.from(record.value());
        assertThat(record.key()).isEqualTo("platform");
        assertThat(json.getString("action")).isEqualTo("egress_ca.rotated");
        assertThat(json.getString("company_id")).isNull();
        assertThat(json.getString("target.id")).isEqualTo(fingerprint);
        assertThat(json.getString("actor.name")).isEqualTo("bootstrap (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN)");
        assertThat(record.value()).doesNotContain(TestOperator.TOKEN);
        await().atMost(Duration.ofSeconds(60)).until(() -> runServiceAudit(TestOperator.HEADER, null)
                .contains(json.getString("id")));
    }

    @Test
    void aChangeMadeWhileKafkaIsDownIsPublishedWhenItIsBack() {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Egress audited during an outage");
        String admin = "Bearer " + run.token(company, "admin");
        InfraControl infra = InfraControl.fromConfig();
        infra.stopKafka();
        try {
            as(admin).body(Map.of("mode", "report")).put("/api/companies/{c}/egress/policy", company)
                    .then().statusCode(200);
        } finally {
            infra.startKafka();
        }

        try (KafkaCompanion afterOutage = new KafkaCompanion(ConfigProvider.getConfig()
                .getValue("kafka.bootstrap.servers", String.class));
             ConsumerTask<String, String> records = afterOutage.consumeStrings().fromTopics(Topics.AUDIT)) {
            ConsumerRecord<String, String> record = await().atMost(Duration.ofSeconds(90)).until(() -> records
                    .getRecords().stream().filter(r -> company.equals(r.key())
                            && "trimus/egress-service".equals(header(r, "ce_source"))).findFirst(),
                    Optional::isPresent).orElseThrow();
            assertThat(JsonPath.from(record.value()).getString("action")).isEqualTo("egress_policy.set");
        }
    }

    private static List<String> runServiceAudit(String authorization, String company) {
        RequestSpecification request = given().baseUri(ConfigProvider.getConfig()
                .getValue(RunServiceResource.URL_KEY, String.class)).header("Authorization", authorization)
                .queryParam("limit", 200);
        if (company != null) {
            request.queryParam("company_id", company);
        }
        return request.get("/api/audit").then().statusCode(200).extract().jsonPath().getList("records.id");
    }

    /** The company's records egress-service published (run-service publishes the company's creation too). */
    private static List<ConsumerRecord<String, String>> onTopic(String company) {
        return topic.getRecords().stream().filter(r -> company.equals(r.key())
                && "trimus/egress-service".equals(header(r, "ce_source"))).toList();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static RequestSpecification as(String authorization) {
        return given().header("Authorization", authorization).header("X-Forwarded-For", FORWARDED)
                .header("User-Agent", AGENT).contentType(ContentType.JSON);
    }
}
