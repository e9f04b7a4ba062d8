package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.EgressAnomaly;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.AnomalyTopic.anomaly;
import static io.trimus.egress.api.EgressApi.anomalies;
import static io.trimus.egress.api.EgressApi.anomalyIds;
import static io.trimus.egress.api.EgressApi.awaitListed;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AnomalyApiTest {
    // the first event through a new consumer group can take ~10 s; later ones must be quick
    static final Duration FIRST = Duration.ofSeconds(30);
    static final Duration QUICK = Duration.ofSeconds(2);
    static final String SKIPPED = "trimus_egress_anomalies_skipped_total";

    private static AnomalyTopic topic;
    private static boolean consumerRunning;

    @BeforeAll
    static void connect() {
        topic = new AnomalyTopic();
    }

    @BeforeEach
    void awaitTheConsumer() {
        if (!consumerRunning) {
            EgressAnomaly warmUp = anomaly(UUID.randomUUID(), "warm-up.example");
            topic.publish(warmUp);
            awaitListed(warmUp, FIRST);
            consumerRunning = true;
        }
    }

    @AfterAll
    static void disconnect() {
        topic.close();
    }

    @Test
    void aPublishedAnomalyIsListedWithinTwoSecondsWithEveryField() {
        UUID company = UUID.randomUUID();
        EgressAnomaly event = anomaly(company, "exfil.attacker.example", 37, Instant.now());

        topic.publish(event);

        awaitListed(event, QUICK);
        anomalies(company, Map.of()).statusCode(200)
                .body("", hasSize(1))
                .body("[0].id", equalTo(event.id().toString()))
                .body("[0].company_id", equalTo(company.toString()))
                .body("[0].agent_id", equalTo(event.agentId().toString()))
                .body("[0].run_id", equalTo(event.runId().toString()))
                .body("[0].container_id", equalTo(event.containerId()))
                .body("[0].source_ip", equalTo("172.30.0.17"))
                .body("[0].qname", equalTo("exfil.attacker.example"))
                .body("[0].qtype", equalTo("A"))
                .body("[0].reason", equalTo("not_allowlisted"))
                .body("[0].count", equalTo(37))
                .body("[0].first_seen", equalTo(event.firstSeen().toString()))
                .body("[0].last_seen", equalTo(event.lastSeen().toString()));
    }

    @Test
    void anomaliesAreListedNewestFirstAndPagedWithBefore() {
        UUID company = UUID.randomUUID();
        Instant t0 = Instant.parse("2026-01-15T09:30:00.000001Z");
        List<EgressAnomaly> events = List.of(
                anomaly(company, "a.example", 1, t0.plusSeconds(20)),
                anomaly(company, "b.example", 1, t0),
                anomaly(company, "c.example", 1, t0.plusSeconds(40)),
                anomaly(company, "d.example", 1, t0.plusSeconds(10)),
                anomaly(company, "e.example", 1, t0.plusSeconds(30)));

        topic.publish(events);

        await().atMost(QUICK).until(() -> anomalyIds(company).size() == 5);
        assertThat(names(anomalies(company, Map.of()).statusCode(200).extract().jsonPath().getList("qname")))
                .containsExactly("c.example", "e.example", "a.example", "d.example", "b.example");
        assertThat(names(anomalies(company, Map.of("limit", 2)).statusCode(200).extract().jsonPath().getList("qname")))
                .containsExactly("c.example", "e.example");
        String cursor = t0.plusSeconds(30).toString();
        assertThat(names(anomalies(company, Map.of("limit", 2, "before", cursor)).statusCode(200)
                .extract().jsonPath().getList("qname"))).containsExactly("a.example", "d.example");
        assertThat(names(anomalies(company, Map.of("limit", 2, "before", t0.plusSeconds(10).toString()))
                .statusCode(200).extract().jsonPath().getList("qname"))).containsExactly("b.example");
        anomalies(company, Map.of("before", t0.toString())).statusCode(200).body("", empty());
    }

    @Test
    void theSameEventTwiceIsStoredOnceAndRecognisedAsADuplicate() {
        UUID company = UUID.randomUUID();
        EgressAnomaly event = anomaly(company, "twice.example", 3, Instant.now());
        EgressAnomaly later = anomaly(company, "later.example");
        double duplicatesBefore = metric(SKIPPED + "\\{reason=\"duplicate\"");
        double failedBefore = metric(SKIPPED + "\\{reason=\"failed\"");

        topic.publish(event, event);
        topic.publish(event, later);

        awaitListed(later, QUICK);
        assertThat(anomalyIds(company)).containsExactlyInAnyOrder(event.id().toString(), later.id().toString());
        assertThat(metric(SKIPPED + "\\{reason=\"duplicate\"") - duplicatesBefore).isEqualTo(2);
        assertThat(metric(SKIPPED + "\\{reason=\"failed\"") - failedBefore).isZero();
    }

    @Test
    void anotherCompanysAnomaliesAreInvisible() {
        UUID mine = UUID.randomUUID();
        UUID theirs = UUID.randomUUID();
        EgressAnomaly own = anomaly(mine, "mine.example");
        EgressAnomaly foreign = anomaly(theirs, "theirs.example");
        EgressAnomaly unattributed = new EgressAnomaly(UUID.randomUUID(), null, null, null, null, "172.30.0.99",
                "nobody.example", "A", EgressAnomaly.UNATTRIBUTED_SOURCE, 1, Instant.now(), Instant.now(), true);

        topic.publish(foreign, unattributed, own);

        awaitListed(own, QUICK);
        awaitListed(foreign, QUICK);
        assertThat(anomalyIds(mine)).containsExactly(own.id().toString());
        assertThat(anomalyIds(theirs)).containsExactly(foreign.id().toString());
    }

    @Test
    void recordsThatAreNoAnomalyAreSkippedAndTheConsumerGoesOn() {
        UUID company = UUID.randomUUID();
        double malformedBefore = metric(SKIPPED + "\\{reason=\"malformed\"");
        EgressAnomaly valid = anomaly(company, "after-garbage.example");

        topic.publishRaw(company.toString(), "this is not JSON");
        topic.publishRaw(company.toString(), "{\"id\": \"" + UUID.randomUUID() + "\", \"qname\": \"half.example\"}");
        topic.publishRaw(company.toString(), "{\"id\": \"not-a-uuid\", \"count\": \"many\"}");
        topic.publishRaw(company.toString(), "[1, 2, 3]");
        topic.publish(valid);

        awaitListed(valid, QUICK);
        assertThat(anomalyIds(company)).containsExactly(valid.id().toString());
        assertThat(metric(SKIPPED + "\\{reason=\"malformed\"") - malformedBefore)
                .isEqualTo(4);
    }

    @Test
    void persistedAnomaliesAreCounted() {
        double before = metric("trimus_egress_anomalies_persisted_total");
        EgressAnomaly event = anomaly(UUID.randomUUID(), "counted.example");

        topic.publish(event, event);

        awaitListed(event, QUICK);
        await().atMost(QUICK).until(() -> metric("trimus_egress_anomalies_persisted_total") > before);
        assertThat(metric("trimus_egress_anomalies_persisted_total") - before).isGreaterThanOrEqualTo(1);
    }

    @Test
    void badPagingValuesNameTheField() {
        UUID company = UUID.randomUUID();

        for (Object limit : List.of(0, 501, -1, "ten", "1.5")) {
            assertInvalidField(anomalies(company, Map.of("limit", limit)), "limit")
                    .body("detail", containsString("1 to 500"));
        }
        for (String before : List.of("yesterday", "2026-01-15", "2026-01-15T09:30:00", "1768469400")) {
            assertInvalidField(anomalies(company, Map.of("before", before)), "before")
                    .body("value", equalTo(before));
        }
        assertInvalidField(given().get("/api/companies/{c}/egress/anomalies", "acme").then(), "company_id");
        anomalies(company, Map.of("limit", 500)).statusCode(200).body("", empty());
        anomalies(company, Map.of("limit", 1, "before", "2026-01-15T09:30:00Z")).statusCode(200);
    }

    private static List<String> names(List<Object> values) {
        return values.stream().map(String::valueOf).toList();
    }

    /** The value of a Prometheus sample whose line starts with {@code prefixRegex}; 0 when absent. */
    static double metric(String prefixRegex) {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^" + prefixRegex + "[^ ]* ([0-9.eE+-]+)$").matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
