package io.trimus.run;

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
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every change to what a company or the platform may do leaves an audit record, with who made it, when, what and from
 * where, readable through GET /api/audit by the company's admins and the operators, and published on trimus.audit; no
 * secret, token, password or setup link ever appears in one. Records of other services are stored once.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AuditLogTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final String SECRET_VALUE = "sk-ant-audit-" + UUID.randomUUID();
    private static final String FORWARDED = "203.0.113.7, 10.0.0.1";
    private static final String AGENT = "audit-test/1.0";

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
    @SuppressWarnings("unchecked")
    void everyKindOfChangeIsRecordedWithItsActorAndSourceInTheApiAndOnTheTopic() {
        String company = as(TestOperator.HEADER).body(Map.of("name", "Audited")).post("/api/companies")
                .then().statusCode(201).extract().path("id");
        var adminToken = as(TestOperator.HEADER).body(Map.of("name", "audit admin", "role", "admin"))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract();
        String admin = "Bearer " + adminToken.path("token");

        as(admin).body(Map.of("value", SECRET_VALUE, "masked", true, "hosts", List.of("api.anthropic.com")))
                .put("/api/companies/{c}/secrets/{n}", company, "ANTHROPIC_API_KEY").then().statusCode(201);
        as(admin).delete("/api/companies/{c}/secrets/{n}", company, "ANTHROPIC_API_KEY").then().statusCode(204);
        String agent = as(admin).body(Map.of("name", "audited agent", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "trimus/busybox:local", "command", List.of("true"))))
                .post("/api/companies/{c}/agents", company).then().statusCode(201).extract().path("id");
        String email = "audit-" + UUID.randomUUID() + "@example.com";
        String link = as(admin).body(Map.of("role", "admin")).put("/api/companies/{c}/members/{e}", company, email)
                .then().statusCode(200).extract().path("setup_url");
        String setupSecret = URI.create(link).getFragment();
        anonymous().body(Map.of("token", setupSecret, "password", PASSWORD)).post("/api/setup")
                .then().statusCode(200);
        String session = anonymous().body(Map.of("email", email, "password", PASSWORD)).post("/api/sessions")
                .then().statusCode(201).extract().path("token");
        String user = "Bearer " + session;
        var userToken = as(user).body(Map.of("name", "made by a user", "role", "viewer"))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract();
        as(user).delete("/api/companies/{c}/tokens/{t}", company, userToken.<String>path("id")).then().statusCode(204);
        as(user).delete("/api/sessions/current").then().statusCode(204);
        as(admin).delete("/api/companies/{c}/members/{e}", company, email).then().statusCode(204);
        as(TestOperator.HEADER).put("/api/companies/{c}/worker-tags/{t}", company, "audit-gpu").then().statusCode(200);
        as(TestOperator.HEADER).delete("/api/companies/{c}/worker-tags/{t}", company, "audit-gpu").then()
                .statusCode(204);
        String operatorEmail = "audit-ops-" + UUID.randomUUID() + "@example.com";
        String operatorLink = as(TestOperator.HEADER).put("/api/operators/{e}", operatorEmail).then().statusCode(200)
                .extract().path("setup_url");
        var operatorToken = as(TestOperator.HEADER).body(Map.of("name", "audit operator token")).post("/api/tokens")
                .then().statusCode(201).extract();
        as(TestOperator.HEADER).delete("/api/tokens/{t}", operatorToken.<String>path("id")).then().statusCode(204);

        List<Map<String, Object>> records = as(admin).queryParam("company_id", company).get("/api/audit")
                .then().statusCode(200).extract().jsonPath().getList("records");
        assertThat(records).extracting(r -> r.get("action")).containsExactly("worker_tag.revoked",
                "worker_tag.granted", "member.removed", "token.revoked", "token.created", "member.put", "agent.created",
                "secret.deleted", "secret.put", "token.created", "company.created");
        String adminTokenId = adminToken.path("id");
        Map<String, Object> secretPut = only(records, "secret.put");
        assertThat(secretPut.get("company_id")).isEqualTo(company);
        assertThat((Object) secretPut.get("actor")).isEqualTo(map("kind", "token", "id", adminTokenId, "name", "audit admin"));
        assertThat((Object) secretPut.get("target")).isEqualTo(map("type", "secret", "id", null, "name", "ANTHROPIC_API_KEY"));
        assertThat((Map<String, Object>) secretPut.get("details")).containsEntry("masked", true).containsEntry("created", true)
                .containsEntry("hosts", List.of("api.anthropic.com"));
        assertThat((Object) secretPut.get("source")).isEqualTo(map("ip", "127.0.0.1", "forwarded_for", FORWARDED,
                "user_agent", AGENT));
        assertThat((Object) only(records, "agent.created").get("target")).isEqualTo(map("type", "agent", "id", agent, "name",
                "audited agent"));
        assertThat((Map<String, Object>) only(records, "member.put").get("details")).containsEntry("role", "admin");
        Map<String, Object> byUser = records.get(4);
        assertThat((Object) byUser.get("actor")).isEqualTo(map("kind", "user", "id", userId(email), "name", email));
        assertThat(((Map<?, ?>) byUser.get("target")).get("id")).isEqualTo(userToken.<String>path("id"));

        List<Map<String, Object>> all = as(TestOperator.HEADER).get("/api/audit").then().statusCode(200).extract()
                .jsonPath().getList("records");
        List<Object> actionsOfAll = all.stream().map(r -> r.get("action")).toList();
        assertThat(actionsOfAll).contains("worker_tag.granted", "worker_tag.revoked", "operator.put",
                "session.opened", "session.closed", "password.set");
        Map<String, Object> granted = all.stream().filter(r -> "worker_tag.granted".equals(r.get("action"))
                && company.equals(r.get("company_id"))).findFirst().orElseThrow();
        assertThat(((Map<?, ?>) granted.get("actor")).get("name")).isEqualTo("bootstrap (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN)");
        Map<String, Object> opened = all.stream().filter(r -> "session.opened".equals(r.get("action"))
                && email.equals(((Map<?, ?>) r.get("actor")).get("name"))).findFirst().orElseThrow();
        assertThat(opened.get("company_id")).isNull();
        Map<String, Object> operatorPut = all.stream().filter(r -> "operator.put".equals(r.get("action"))
                && operatorEmail.equals(((Map<?, ?>) r.get("target")).get("name"))).findFirst().orElseThrow();
        assertThat(operatorPut.get("company_id")).isNull();
        assertThat(all.stream().filter(r -> "token.created".equals(r.get("action"))
                && operatorToken.<String>path("id").equals(((Map<?, ?>) r.get("target")).get("id")))).hasSize(1);

        List<String> companyIds = records.stream().map(r -> (String) r.get("id")).toList();
        List<ConsumerRecord<String, String>> published = await().atMost(Duration.ofSeconds(60)).until(
                () -> onTopic(company), found -> found.size() >= companyIds.size());
        assertThat(published).extracting(ConsumerRecord::key).containsOnly(company);
        assertThat(published).extracting(r -> KafkaTopics.header(r, "ce_type")).containsOnly(EventTypes.AUDIT_RECORD);
        assertThat(published).extracting(r -> KafkaTopics.header(r, "ce_subject")).containsOnly(company);
        assertThat(published).extracting(r -> JsonPath.from(r.value()).getString("id"))
                .containsExactlyInAnyOrderElementsOf(companyIds);
        assertThat(published.stream().map(r -> JsonPath.from(r.value()).<String, Object>getMap("")).toList())
                .containsExactlyInAnyOrderElementsOf(records);
        String platformId = (String) operatorPut.get("id");
        ConsumerRecord<String, String> platform = await().atMost(Duration.ofSeconds(60)).until(
                () -> topic.getRecords().stream().filter(r -> r.value().contains(platformId)).findFirst(),
                java.util.Optional::isPresent).orElseThrow();
        assertThat(platform.key()).isEqualTo("platform");

        String everything = as(TestOperator.HEADER).get("/api/audit?limit=200").asString()
                + topic.getRecords().stream().map(ConsumerRecord::value).collect(Collectors.joining());
        assertThat(everything).contains(company).doesNotContain(SECRET_VALUE, adminToken.<String>path("token"),
                userToken.<String>path("token"), operatorToken.<String>path("token"), session, PASSWORD, setupSecret,
                URI.create(operatorLink).getFragment(), TestOperator.TOKEN);
    }

    @Test
    void aChangeThatFailsLeavesNoRecord() {
        String company = Api.createCompany("Audited refusals");
        as(TestOperator.HEADER).body(Map.of("value", "v", "agents", List.of(UUID.randomUUID().toString())))
                .put("/api/companies/{c}/secrets/{n}", company, "REFUSED").then().statusCode(400);
        as(TestOperator.HEADER).delete("/api/companies/{c}/secrets/{n}", company, "NONE").then().statusCode(404);

        assertThat(as(TestOperator.HEADER).queryParam("company_id", company).get("/api/audit").then().statusCode(200)
                .extract().jsonPath().getList("records.action")).containsExactly("company.created");
    }

    @Test
    void aChangeMadeWhileKafkaIsDownIsReadableAtOnceAndPublishedWhenKafkaIsBack() {
        String company = Api.createCompany("Audited during an outage");
        InfraControl infra = InfraControl.fromConfig();
        String id;
        infra.stopKafka();
        try {
            as(TestOperator.HEADER).body(Map.of("value", SECRET_VALUE)).put("/api/companies/{c}/secrets/{n}", company,
                    "DURING_OUTAGE").then().statusCode(201);
            id = as(TestOperator.HEADER).queryParam("company_id", company).get("/api/audit").then().statusCode(200)
                    .body("records[0].action", org.hamcrest.Matchers.equalTo("secret.put")).extract()
                    .path("records[0].id");
        } finally {
            infra.startKafka();
        }

        try (KafkaCompanion afterOutage = new KafkaCompanion(ConfigProvider.getConfig()
                .getValue("kafka.bootstrap.servers", String.class));
             ConsumerTask<String, String> records = afterOutage.consumeStrings().fromTopics(Topics.AUDIT)) {
            await().atMost(Duration.ofSeconds(90)).until(() -> records.getRecords().stream()
                    .anyMatch(r -> company.equals(r.key()) && r.value().contains(id)));
        }
    }

    @Test
    void onlyTheCompanysAdminsAndTheOperatorsReadItsAuditLog() {
        String company = Api.createCompany("Audit readers");
        String other = Api.createCompany("Audit strangers");
        for (String role : List.of("member", "viewer")) {
            as("Bearer " + AccessTableTest.token(company, role)).queryParam("company_id", company).get("/api/audit")
                    .then().statusCode(403);
        }
        String admin = "Bearer " + AccessTableTest.token(company, "admin");
        as("Bearer " + AccessTableTest.token(other, "admin")).queryParam("company_id", company).get("/api/audit")
                .then().statusCode(404);
        as(admin).get("/api/audit").then().statusCode(400);
        as(admin).queryParam("company_id", company).get("/api/audit").then().statusCode(200);

        List<String> firstPage = as(admin).queryParam("company_id", company).queryParam("limit", 2).get("/api/audit")
                .then().statusCode(200).extract().jsonPath().getList("records.action");
        String next = as(admin).queryParam("company_id", company).queryParam("limit", 2).get("/api/audit")
                .then().extract().path("next_before");
        List<String> rest = as(admin).queryParam("company_id", company).queryParam("before", next).get("/api/audit")
                .then().statusCode(200).extract().jsonPath().getList("records.action");
        assertThat(firstPage).containsExactly("token.created", "token.created");
        assertThat(rest).containsExactly("token.created", "company.created");
        as(admin).queryParam("company_id", company).queryParam("before", UUID.randomUUID().toString())
                .get("/api/audit").then().statusCode(400);
    }

    @Test
    void aRecordOfAnotherServiceIsStoredOnceFromTheTopic() {
        String company = Api.createCompany("Audit from egress");
        String id = UUID.randomUUID().toString();
        String record = """
                {"id": "%s", "occurred_at": "2026-01-15T09:31:00Z", "actor": {"kind": "token", "id": null,
                 "name": "ci"}, "company_id": "%s", "action": "allowlist.replaced", "target": {"type": "allowlist",
                 "id": null, "name": null}, "details": {"added": ["pypi.org"], "removed": []},
                 "source": {"ip": "10.0.0.9", "forwarded_for": null, "user_agent": "curl/8"}, "later": 1}
                """.formatted(id, company);
        KafkaTopics.shared().produce(Topics.AUDIT, company, record);
        KafkaTopics.shared().produce(Topics.AUDIT, company, record);

        await().atMost(Duration.ofSeconds(60)).until(() -> as(TestOperator.HEADER).queryParam("company_id", company)
                .get("/api/audit").then().extract().jsonPath().getList("records.id").contains(id));
        KafkaTopics.shared().produce(Topics.AUDIT, company, "{\"not\": \"a record\"}");
        String marker = UUID.randomUUID().toString();
        KafkaTopics.shared().produce(Topics.AUDIT, company, record.replace(id, marker));
        await().atMost(Duration.ofSeconds(60)).until(() -> as(TestOperator.HEADER).queryParam("company_id", company)
                .get("/api/audit").then().extract().jsonPath().getList("records.id").contains(marker));

        assertThat(as(TestOperator.HEADER).queryParam("company_id", company).get("/api/audit").then().extract()
                .jsonPath().getList("records.id")).filteredOn(id::equals).hasSize(1);
        assertThat(Db.texts("select count(*) from run.audit_record where id = ?", UUID.fromString(id)))
                .containsExactly("1");
    }

    private List<ConsumerRecord<String, String>> onTopic(String company) {
        return topic.getRecords().stream().filter(r -> company.equals(r.key())).toList();
    }

    private static Map<String, Object> only(List<Map<String, Object>> records, String action) {
        List<Map<String, Object>> found = records.stream().filter(r -> action.equals(r.get("action"))).toList();
        assertThat(found).as(action).hasSize(1);
        return found.get(0);
    }

    private static String userId(String email) {
        return Db.texts("select id::text from run.app_user where email = ?", email).get(0);
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** A request from behind a proxy, as {@code authorization}. */
    private static RequestSpecification as(String authorization) {
        return given().header("Authorization", authorization).header("X-Forwarded-For", FORWARDED)
                .header("User-Agent", AGENT).contentType(ContentType.JSON);
    }

    private static RequestSpecification anonymous() {
        return as("");
    }
}
