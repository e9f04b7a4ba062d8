package io.trimus.egress.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryRequested;
import io.trimus.events.CanaryResult;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.testing.RunServiceResource;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A company's canaries through the API and the real broker, with run-service saying who each caller is: a POST
 * starts one (one running per company, however often it is asked) and publishes its request with targets from the
 * company's allowlist; the result an adapter reports ends it; a breached check raises canary_breach; a second result
 * changes nothing; viewers read, only admins start, and another company sees none of it.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = RunServiceResource.class, scope = TestResourceScope.GLOBAL)
class CanaryApiTest {
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static KafkaCompanion kafka;
    private static ConsumerTask<String, String> requests;

    @BeforeAll
    static void readTheTopic() {
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        requests = kafka.consumeStrings().fromTopics(Topics.EGRESS_CANARY_REQUESTS);
    }

    @AfterAll
    static void close() {
        requests.close();
        kafka.close();
    }

    @Test
    void aCanaryAskedForIsRequestedOnceEndsWithItsResultAndABreachBecomesAnAnomaly() throws Exception {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Canaried");
        String admin = "Bearer " + run.token(company, "admin");
        String viewer = "Bearer " + run.token(company, "viewer");
        String otherAdmin = "Bearer " + run.token(run.company("Not canaried"), "admin");
        given().header("Authorization", admin).contentType(ContentType.JSON)
                .body(Map.of("entries", List.of("*.pypi.org", "api.github.com", "git.example.com:22")))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);

        given().header("Authorization", viewer).get("/api/companies/{c}/egress/canary", company).then()
                .statusCode(200).body("status", org.hamcrest.Matchers.equalTo("none"));
        given().header("Authorization", viewer).post("/api/companies/{c}/egress/canary", company).then()
                .statusCode(403);
        given().header("Authorization", otherAdmin).post("/api/companies/{c}/egress/canary", company).then()
                .statusCode(404);

        JsonPath first = given().header("Authorization", admin).post("/api/companies/{c}/egress/canary", company)
                .then().statusCode(202).extract().jsonPath();
        assertThat(first.getString("status")).isEqualTo("running");
        assertThat(first.getString("trigger")).isEqualTo("manual");
        String canary = first.getString("id");
        JsonPath again = given().header("Authorization", admin).post("/api/companies/{c}/egress/canary", company)
                .then().statusCode(202).extract().jsonPath();
        assertThat(again.getString("id")).as("one running canary per company").isEqualTo(canary);

        List<ConsumerRecord<String, String>> asked = await().atMost(Duration.ofSeconds(30))
                .until(() -> requestsOf(company), found -> !found.isEmpty());
        assertThat(asked).hasSize(1);
        ConsumerRecord<String, String> record = asked.get(0);
        assertThat(header(record, "ce_type")).isEqualTo(EventTypes.EGRESS_CANARY_REQUESTED);
        CanaryRequested request = JSON.readValue(record.value(), CanaryRequested.class);
        assertThat(request.canaryId()).hasToString(canary);
        assertThat(request.allowedHost()).isEqualTo("api.github.com:443");
        assertThat(request.unlistedName()).endsWith(".canary.trimus.invalid");
        assertThat(request.unlistedPort()).isEqualTo(25);
        assertThat(request.ipLiteral()).isEqualTo("1.1.1.1:443");

        CanaryResult breached = new CanaryResult(UUID.randomUUID(), request.canaryId(), request.companyId(), List.of(
                CanaryCheck.mustFail(CanaryCheck.UNLISTED_NAME, request.unlistedName(), "NXDOMAIN", false),
                CanaryCheck.mustFail(CanaryCheck.BRIDGE_ROUTE, "172.30.0.1:22",
                        "connection refused by the host (its firewall let the packet in)", true),
                CanaryCheck.mustWork(CanaryCheck.ALLOWED_HOST, "CONNECT api.github.com:443 via 172.30.0.1:3128",
                        "HTTP 200", true)), null, "adapter-test", Instant.now(), "172.30.0.77");
        publish(breached);

        JsonPath status = await().atMost(Duration.ofSeconds(30)).until(() -> canaryOf(viewer, company),
                s -> !"running".equals(s.getString("status")));
        assertThat(status.getString("status")).isEqualTo("breached");
        assertThat(status.getString("finished_at")).isNotNull();
        assertThat(status.getList("checks.name")).containsExactly("unlisted_name", "bridge_route", "allowed_host");
        assertThat(status.getString("checks[1].expected")).isEqualTo("blocked");
        assertThat(status.getString("checks[1].outcome")).isEqualTo("allowed");

        JsonPath anomalies = await().atMost(Duration.ofSeconds(30)).until(() -> given()
                        .header("Authorization", viewer).queryParam("reason", "canary_breach")
                        .get("/api/companies/{c}/egress/anomalies", company).then().statusCode(200).extract()
                        .jsonPath(), a -> a.getList("").size() >= 1);
        assertThat(anomalies.getList("")).hasSize(1);
        assertThat(anomalies.getString("[0].qname")).isEqualTo("172.30.0.1:22");
        assertThat(anomalies.getString("[0].qtype")).isEqualTo("CANARY");
        assertThat(anomalies.getString("[0].run_id")).isEqualTo(canary);
        assertThat(anomalies.getString("[0].source_ip")).isEqualTo("172.30.0.77");

        // a second result for the same canary changes nothing
        publish(new CanaryResult(UUID.randomUUID(), request.canaryId(), request.companyId(), List.of(
                CanaryCheck.mustFail(CanaryCheck.UNLISTED_NAME, request.unlistedName(), "NXDOMAIN", false)),
                null, "adapter-test", Instant.now()));
        // the next canary passes; the breached one is history
        String second = given().header("Authorization", admin).post("/api/companies/{c}/egress/canary", company)
                .then().statusCode(202).extract().jsonPath().getString("id");
        assertThat(second).isNotEqualTo(canary);
        publish(new CanaryResult(UUID.randomUUID(), UUID.fromString(second), request.companyId(), List.of(
                CanaryCheck.mustFail(CanaryCheck.UNLISTED_NAME, request.unlistedName(), "NXDOMAIN", false),
                CanaryCheck.skipped(CanaryCheck.ALLOWED_HOST, CanaryCheck.ALLOWED, "nothing to try")),
                null, "adapter-test", Instant.now()));
        JsonPath passed = await().atMost(Duration.ofSeconds(30)).until(() -> canaryOf(viewer, company),
                s -> "passed".equals(s.getString("status")));
        assertThat(passed.getString("id")).isEqualTo(second);
        assertThat(passed.getList("history.id")).containsExactly(canary);
        assertThat(passed.getString("history[0].status")).isEqualTo("breached");
        assertThat(passed.getList("history[0].checks")).hasSize(3);
        assertThat(passed.getString("interval")).as("the schedule is off in tests: null says so").isNull();

        given().header("Authorization", otherAdmin).get("/api/companies/{c}/egress/canary", company).then()
                .statusCode(404);
    }

    @Test
    void aProbeThatCouldNotRunOrFoundTheAllowedHostBlockedEndsFailedSayingWhy() {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Canary failed");
        String admin = "Bearer " + run.token(company, "admin");
        String canary = given().header("Authorization", admin).post("/api/companies/{c}/egress/canary", company)
                .then().statusCode(202).extract().jsonPath().getString("id");
        publish(new CanaryResult(UUID.randomUUID(), UUID.fromString(canary), UUID.fromString(company), List.of(
                CanaryCheck.mustFail(CanaryCheck.METADATA, "169.254.169.254:80", "timed out", false),
                CanaryCheck.mustWork(CanaryCheck.ALLOWED_HOST, "CONNECT api.github.com:443 via 172.30.0.1:3128",
                        "HTTP 403", false)), null, "adapter-test", Instant.now()));
        JsonPath failed = await().atMost(Duration.ofSeconds(30)).until(() -> canaryOf(admin, company),
                s -> !"running".equals(s.getString("status")));
        assertThat(failed.getString("status")).isEqualTo("failed");
        assertThat(failed.getString("error")).contains("allowed_host");

        String next = given().header("Authorization", admin).post("/api/companies/{c}/egress/canary", company)
                .then().statusCode(202).extract().jsonPath().getString("id");
        publish(new CanaryResult(UUID.randomUUID(), UUID.fromString(next), UUID.fromString(company), List.of(),
                "the image trimus/busybox:local is not on this engine", "adapter-test", Instant.now()));
        JsonPath noImage = await().atMost(Duration.ofSeconds(30)).until(() -> canaryOf(admin, company),
                s -> next.equals(s.getString("id")) && !"running".equals(s.getString("status")));
        assertThat(noImage.getString("status")).isEqualTo("failed");
        assertThat(noImage.getString("error")).contains("trimus/busybox:local");
    }

    @Test
    void aResultNamingAnotherCompanyEndsNothing() {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Canary owner");
        String admin = "Bearer " + run.token(company, "admin");
        String canary = given().header("Authorization", admin).post("/api/companies/{c}/egress/canary", company)
                .then().statusCode(202).extract().jsonPath().getString("id");
        publish(new CanaryResult(UUID.randomUUID(), UUID.fromString(canary), UUID.randomUUID(), List.of(
                CanaryCheck.mustFail(CanaryCheck.METADATA, "169.254.169.254:80", "connected", true)), null,
                "adapter-test", Instant.now()));
        // a result for the right company after it: only that one counts
        publish(new CanaryResult(UUID.randomUUID(), UUID.fromString(canary), UUID.fromString(company), List.of(
                CanaryCheck.mustFail(CanaryCheck.METADATA, "169.254.169.254:80", "timed out", false)), null,
                "adapter-test", Instant.now()));
        JsonPath status = await().atMost(Duration.ofSeconds(30)).until(() -> canaryOf(admin, company),
                s -> !"running".equals(s.getString("status")));
        assertThat(status.getString("status")).isEqualTo("passed");
    }

    private static JsonPath canaryOf(String credential, String company) {
        return given().header("Authorization", credential).get("/api/companies/{c}/egress/canary", company).then()
                .statusCode(200).extract().jsonPath();
    }

    private static void publish(CanaryResult result) {
        try {
            ProducerRecord<String, String> record = new ProducerRecord<>(Topics.EGRESS_CANARY_RESULTS,
                    result.companyId().toString(), JSON.writeValueAsString(result));
            record.headers().add(new RecordHeader("ce_specversion", "1.0".getBytes(StandardCharsets.UTF_8)));
            record.headers().add(new RecordHeader("ce_id", result.id().toString().getBytes(StandardCharsets.UTF_8)));
            record.headers().add(new RecordHeader("ce_type",
                    EventTypes.EGRESS_CANARY_RESULT.getBytes(StandardCharsets.UTF_8)));
            record.headers().add(new RecordHeader("ce_source",
                    "trimus/adapter-lambda-service".getBytes(StandardCharsets.UTF_8)));
            record.headers().add(new RecordHeader("content-type",
                    "application/json".getBytes(StandardCharsets.UTF_8)));
            kafka.produceStrings().fromRecords(record).awaitCompletion(Duration.ofSeconds(30));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<ConsumerRecord<String, String>> requestsOf(String company) {
        return requests.getRecords().stream().filter(r -> company.equals(r.key())).toList();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        return Optional.ofNullable(record.headers().lastHeader(name))
                .map(h -> new String(h.value(), StandardCharsets.UTF_8)).orElse(null);
    }
}
