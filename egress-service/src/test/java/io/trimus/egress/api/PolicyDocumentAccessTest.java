package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.events.Topics;
import io.trimus.testing.RunServiceResource;
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
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.PolicyDocuments.PATH;
import static io.trimus.egress.api.PolicyDocuments.document;
import static io.trimus.egress.api.PolicyDocuments.revisions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Who may read and replace a company's policy document, with run-service (a real one, in a child JVM) saying who each
 * credential is: any role of the company reads it, only its admins replace it (a dry run included); another company's
 * admin neither reads nor writes it. Every real change leaves the audit records the single-list APIs leave, marked
 * {@code via: policy_document}; a document that changes nothing, a dry run and a refused one leave none.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = RunServiceResource.class, scope = TestResourceScope.GLOBAL)
class PolicyDocumentAccessTest {
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
    void anyRoleOfTheCompanyReadsOnlyItsAdminsWriteAndOtherCompaniesNeither() throws Exception {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Policy as code");
        String admin = "Bearer " + run.token(company, "admin");
        String member = "Bearer " + run.token(company, "member");
        String viewer = "Bearer " + run.token(company, "viewer");
        String otherAdmin = "Bearer " + run.token(run.company("Someone else"), "admin");
        Map<String, Object> wanted = document("report", List.of("api.github.com"),
                Map.of(UUID.randomUUID(), List.of("api.github.com")));
        as(admin).body(document("enforce", List.of("kept.example.com"), Map.of())).put(PATH, company).then()
                .statusCode(200);
        List<Long> revisions = revisions(UUID.fromString(company));

        for (String reader : List.of(admin, member, viewer)) {
            as(reader).get(PATH, company).then().statusCode(200).body("entries", equalTo(List.of("kept.example.com")));
            as(reader).accept("application/yaml").get(PATH, company).then().statusCode(200);
        }
        for (String writer : List.of(member, viewer)) {
            as(writer).body(wanted).put(PATH, company).then().statusCode(403);
            as(writer).body(wanted).queryParam("dry_run", true).put(PATH, company).then().statusCode(403);
        }
        String hidden = "company " + company + " does not exist";
        as(otherAdmin).get(PATH, company).then().statusCode(404).body("detail", equalTo(hidden));
        as(otherAdmin).body(wanted).put(PATH, company).then().statusCode(404).body("detail", equalTo(hidden));
        as(otherAdmin).body(wanted).queryParam("dry_run", true).put(PATH, company).then().statusCode(404);
        given().contentType(ContentType.JSON).header("Authorization", "Bearer trimus_t_nobodyknowsthis").body(wanted)
                .put(PATH, company).then().statusCode(401);

        assertThat(revisions(UUID.fromString(company))).as("no refused caller changed anything").isEqualTo(revisions);
        as(admin).get(PATH, company).then().statusCode(200).body("mode", equalTo("enforce"))
                .body("entries", equalTo(List.of("kept.example.com"))).body("agents", equalTo(Map.of()));
    }

    @Test
    void realChangesAreAuditedAsTheSingleListApisAuditThemAndNoOpsAreNot() {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Policy as code, audited");
        String admin = "Bearer " + run.token(company, "admin");
        UUID agent = UUID.randomUUID();
        UUID dropped = UUID.randomUUID();
        as(admin).body(Map.of("entries", List.of("old.example.com")))
                .put("/api/companies/{c}/agents/{a}/egress/allowlist", company, dropped).then().statusCode(200);

        Map<String, Object> wanted = document("report", List.of("api.github.com"), Map.of(agent,
                List.of("api.github.com")));
        as(admin).body(wanted).queryParam("dry_run", true).put(PATH, company).then().statusCode(200);
        as(admin).body(document("report", List.of("*.com"), Map.of())).put(PATH, company).then().statusCode(400);
        as(admin).body(wanted).put(PATH, company).then().statusCode(200).body("applied", equalTo(true));
        byte[] exported = as(admin).accept("application/yaml").get(PATH, company).then().statusCode(200)
                .extract().asByteArray();
        as(admin).contentType("application/yaml").body(exported)
                .put(PATH, company).then().statusCode(200).body("changed", equalTo(false));
        as(admin).body(document("enforce", List.of("api.github.com"), Map.of(agent, List.of("api.github.com"))))
                .put(PATH, company).then().statusCode(200);

        // one transaction writes the mode, the company's list, then the agents' lists in the order of their ids
        UUID first = agent.compareTo(dropped) < 0 ? agent : dropped;
        UUID second = first == agent ? dropped : agent;
        int created = first == agent ? 3 : 4;
        // the last change is recorded after every earlier one of the company (one key, one partition)
        List<JsonPath> records = await().atMost(Duration.ofSeconds(60)).until(() -> onTopic(company),
                found -> found.size() >= 6);
        assertThat(records).extracting(r -> r.getString("action") + " " + r.getString("target.type") + " "
                + r.getString("target.id")).containsExactly(
                "allowlist.replaced agent_allowlist " + dropped,
                "egress_policy.set egress_policy null",
                "allowlist.replaced allowlist null",
                "allowlist.replaced agent_allowlist " + first,
                "allowlist.replaced agent_allowlist " + second,
                "egress_policy.set egress_policy null");
        List<JsonPath> viaDocument = records.subList(1, 6);
        assertThat(viaDocument).allSatisfy(r -> {
            assertThat(r.getString("details.via")).isEqualTo("policy_document");
            assertThat(r.getString("actor.name")).isEqualTo("admin");
        });
        assertThat(records.get(1).getString("details.mode")).isEqualTo("report");
        assertThat(records.get(2).getList("details.added")).containsExactly("api.github.com");
        assertThat(records.get(created).getBoolean("details.own_list")).isTrue();
        assertThat(records.get(7 - created).getBoolean("details.own_list")).isFalse();
        assertThat(records.get(7 - created).getList("details.removed")).containsExactly("old.example.com");
        assertThat(records.get(5).getString("details.mode")).isEqualTo("enforce");
    }

    /** The company's records egress-service published, in order. */
    private static List<JsonPath> onTopic(String company) {
        return topic.getRecords().stream().filter(r -> company.equals(r.key())
                        && "trimus/egress-service".equals(header(r, "ce_source")))
                .map(r -> JsonPath.from(r.value())).toList();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static RequestSpecification as(String authorization) {
        return given().header("Authorization", authorization).contentType(ContentType.JSON);
    }
}
