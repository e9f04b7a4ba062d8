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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.anomalies;
import static io.trimus.egress.api.EgressApi.awaitListed;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.nullValue;

/**
 * What the dashboard reads besides the plain list: a company's anomalies filtered by reason (exact) and name
 * (substring, ignoring case), the operator summary grouped by company and name, and the count of denials since a
 * time. The anomalies go through the real broker and the real consumer first.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AnomalyFilterAndSummaryTest {
    private static final Duration FIRST = Duration.ofSeconds(30);

    private static AnomalyTopic topic;
    private static final UUID ACME = UUID.randomUUID();
    private static final UUID GLOBEX = UUID.randomUUID();
    private static final UUID INITECH = UUID.randomUUID();
    private static final UUID UMBRELLA = UUID.randomUUID();
    private static final UUID HOOLI = UUID.randomUUID();
    private static volatile Instant start;

    @BeforeAll
    static void connect() {
        topic = new AnomalyTopic();
    }

    // RestAssured knows the app's port only once a test runs: publish and wait for the rows before the first one
    @BeforeEach
    void publishOnce() {
        if (start != null) {
            return;
        }
        start = Instant.now().truncatedTo(ChronoUnit.MICROS).minusSeconds(1);
        Instant t = start.plusSeconds(60);
        List<EgressAnomaly> events = new ArrayList<>();
        events.add(anomaly(ACME, "api.GitHub.com", EgressAnomaly.NOT_ALLOWLISTED, 3, t.plusMillis(1)));
        events.add(anomaly(ACME, "api.GitHub.com", EgressAnomaly.NOT_ALLOWLISTED, 4, t.plusMillis(2)));
        events.add(anomaly(ACME, "tunnel.github.io", EgressAnomaly.QTYPE_DENIED, 10, t.plusMillis(3)));
        events.add(anomaly(ACME, "pypi.org", EgressAnomaly.NOT_ALLOWLISTED, 1, t.plusMillis(4)));
        events.add(anomaly(ACME, "50%_off.example", EgressAnomaly.NOT_ALLOWLISTED, 1, t.plusMillis(5)));
        events.add(anomaly(GLOBEX, "api.github.com", EgressAnomaly.NOT_ALLOWLISTED, 7, t.plusMillis(6)));
        events.add(anomaly(INITECH, "metadata.attacker.example", EgressAnomaly.PROXY_ADDRESS_DENIED, 2,
                t.plusMillis(7)));
        events.add(anomaly(INITECH, "api.example.com:8443", EgressAnomaly.PROXY_PORT_DENIED, 1, t.plusMillis(8)));
        EgressAnomaly reported = anomaly(INITECH, "registry.npmjs.org", EgressAnomaly.PROXY_NOT_ALLOWLISTED, 12,
                t.plusMillis(9));
        events.add(new EgressAnomaly(reported.id(), reported.companyId(), reported.agentId(), reported.runId(),
                reported.containerId(), reported.sourceIp(), reported.qname(), "TLS", reported.reason(),
                reported.count(), reported.firstSeen(), reported.lastSeen(), false));
        EgressAnomaly tunnelling = anomaly(UMBRELLA, "*.t.attacker.example", EgressAnomaly.SUSPECTED_TUNNELLING, 1,
                t.plusMillis(11));
        events.add(anomaly(UMBRELLA, "pypi.org", EgressAnomaly.NOT_ALLOWLISTED, 1, t.plusMillis(10)));
        events.add(new EgressAnomaly(tunnelling.id(), tunnelling.companyId(), tunnelling.agentId(),
                tunnelling.runId(), tunnelling.containerId(), tunnelling.sourceIp(), tunnelling.qname(), "TXT",
                tunnelling.reason(), tunnelling.count(), tunnelling.firstSeen(), tunnelling.lastSeen(), true, null,
                null, 0.83, List.of("long_names", "high_entropy")));
        EgressAnomaly outOfRange = anomaly(HOOLI, "x.attacker.example", EgressAnomaly.NOT_ALLOWLISTED, 1,
                t.plusMillis(12));
        events.add(new EgressAnomaly(outOfRange.id(), outOfRange.companyId(), outOfRange.agentId(),
                outOfRange.runId(), outOfRange.containerId(), outOfRange.sourceIp(), outOfRange.qname(), "A",
                outOfRange.reason(), 1, outOfRange.firstSeen(), outOfRange.lastSeen(), true, null, null, 1.7,
                List.of("rate")));
        topic.publish(events);
        events.forEach(e -> awaitListed(e, FIRST));
    }

    @AfterAll
    static void disconnect() {
        topic.close();
    }

    @Test
    void theNameFilterMatchesASubstringIgnoringCase() {
        anomalies(ACME, Map.of("qname", "GITHUB")).statusCode(200)
                .body("qname", equalTo(List.of("tunnel.github.io", "api.GitHub.com", "api.GitHub.com")));
        anomalies(ACME, Map.of("qname", "api.github.com")).statusCode(200).body("size()", equalTo(2));
    }

    @Test
    void likeWildcardsInTheNameFilterAreLiteral() {
        anomalies(ACME, Map.of("qname", "%")).statusCode(200).body("qname", equalTo(List.of("50%_off.example")));
        anomalies(ACME, Map.of("qname", "0%_o")).statusCode(200).body("size()", equalTo(1));
        anomalies(ACME, Map.of("qname", "_")).statusCode(200).body("size()", equalTo(1));
    }

    @Test
    void theReasonFilterMatchesExactlyAndCombinesWithTheNameAndPaging() {
        anomalies(ACME, Map.of("reason", "qtype_denied")).statusCode(200)
                .body("qname", equalTo(List.of("tunnel.github.io")));
        List<String> lastSeen = anomalies(ACME, Map.of("reason", "not_allowlisted", "qname", "github", "limit", 1))
                .statusCode(200).body("count", equalTo(List.of(4))).extract().path("last_seen");
        anomalies(ACME, Map.of("reason", "not_allowlisted", "qname", "github", "before", lastSeen.get(0)))
                .statusCode(200).body("count", equalTo(List.of(3)));
    }

    @Test
    void refusedProxyConnectionsAreListedAndFilteredByTheirReasons() {
        anomalies(INITECH, Map.of("reason", "proxy_address_denied")).statusCode(200)
                .body("qname", equalTo(List.of("metadata.attacker.example"))).body("qtype", equalTo(List.of("CONNECT")))
                .body("count", equalTo(List.of(2)));
        anomalies(INITECH, Map.of("reason", "proxy_port_denied")).statusCode(200)
                .body("qname", equalTo(List.of("api.example.com:8443")));
        anomalies(INITECH, Map.of("reason", "proxy_host_mismatch")).statusCode(200).body("size()", equalTo(0));
        anomalies(INITECH, Map.of("reason", "bogus")).statusCode(400)
                .body("detail", containsString("proxy_not_allowlisted, proxy_address_denied, proxy_port_denied,"
                        + " proxy_host_mismatch"));
    }

    @Test
    void whatReportModeLetThroughIsStoredAsNotEnforcedAndEverythingElseAsEnforced() {
        anomalies(INITECH, Map.of("reason", "proxy_not_allowlisted")).statusCode(200)
                .body("qname", equalTo(List.of("registry.npmjs.org"))).body("enforced", equalTo(List.of(false)))
                .body("count", equalTo(List.of(12)));
        anomalies(INITECH, Map.of("reason", "proxy_address_denied")).statusCode(200)
                .body("enforced", equalTo(List.of(true)));
        anomalies(ACME, Map.of()).statusCode(200).body("enforced", everyItem(equalTo(true)));
    }

    @Test
    void aTunnellingScoreAndItsSignalsAreListedAndNullForAnEventWithout() {
        var rows = anomalies(UMBRELLA, Map.of()).statusCode(200)
                .body("qname", equalTo(List.of("*.t.attacker.example", "pypi.org")))
                .body("reason", equalTo(List.of("suspected_tunnelling", "not_allowlisted")))
                .body("[0].signals", equalTo(List.of("long_names", "high_entropy")))
                .body("[1].score", nullValue()).body("[1].signals", nullValue())
                .extract().jsonPath();
        assertThat(rows.getDouble("[0].score")).isEqualTo(0.83);
        // a score outside 0..1 (no event of this service's) is dropped, not the anomaly with it
        anomalies(HOOLI, Map.of()).statusCode(200).body("qname", equalTo(List.of("x.attacker.example")))
                .body("[0].score", nullValue()).body("[0].signals", nullValue());
    }

    @Test
    void theReasonFilterKeepsSuspectedTunnellingAndMinScoreKeepsScoresAtLeastIt() {
        anomalies(UMBRELLA, Map.of("reason", "suspected_tunnelling")).statusCode(200)
                .body("qname", equalTo(List.of("*.t.attacker.example")));
        anomalies(UMBRELLA, Map.of("reason", "not_allowlisted")).statusCode(200)
                .body("qname", equalTo(List.of("pypi.org")));
        anomalies(UMBRELLA, Map.of("min_score", "0.83")).statusCode(200)
                .body("qname", equalTo(List.of("*.t.attacker.example")));
        anomalies(UMBRELLA, Map.of("min_score", "0.84")).statusCode(200).body("size()", equalTo(0));
        anomalies(UMBRELLA, Map.of("min_score", "0")).statusCode(200)
                .body("qname", equalTo(List.of("*.t.attacker.example")));
        anomalies(ACME, Map.of("min_score", "0")).statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void everyFilterParameterIsValidated() {
        assertInvalidField(anomalies(ACME, Map.of("min_score", "1.5")), "min_score");
        assertInvalidField(anomalies(ACME, Map.of("min_score", "-0.1")), "min_score");
        assertInvalidField(anomalies(ACME, Map.of("min_score", "high")), "min_score");
        assertInvalidField(anomalies(ACME, Map.of("min_score", "NaN")), "min_score");
        assertInvalidField(anomalies(ACME, Map.of("reason", "NOT_ALLOWLISTED")), "reason");
        assertInvalidField(anomalies(ACME, Map.of("reason", "denied")), "reason");
        assertInvalidField(anomalies(ACME, Map.of("qname", "a".repeat(254))), "qname");
        assertInvalidField(anomalies(ACME, Map.of("qname", "a\u0007b")), "qname");
        assertInvalidField(anomalies(ACME, Map.of("before", "yesterday")), "before");
        assertInvalidField(anomalies(ACME, Map.of("limit", "501")), "limit");
    }

    @Test
    void theSummaryGroupsByCompanyAndNameWithSummedCounts() {
        var groups = given().queryParam("since", start.toString()).queryParam("limit", 500)
                .get("/api/egress/anomalies/summary").then().statusCode(200)
                .body("since", equalTo(start.toString())).body("offset", equalTo(0)).body("limit", equalTo(500))
                .extract().jsonPath().getList("groups", Map.class);
        List<Map<?, ?>> ours = new ArrayList<>();
        for (Map<?, ?> g : groups) {
            if (ACME.toString().equals(g.get("company_id")) || GLOBEX.toString().equals(g.get("company_id"))) {
                ours.add(g);
            }
        }
        // most recently seen first; api.GitHub.com folds its two events into one group
        assertThat(ours).extracting(g -> g.get("qname") + "=" + g.get("lookups") + "/" + g.get("events"))
                .containsExactly("api.github.com=7/1", "50%_off.example=1/1", "pypi.org=1/1", "tunnel.github.io=10/1",
                        "api.GitHub.com=7/2");
        assertThat(ours.get(4).get("last_seen")).isEqualTo(start.plusSeconds(60).plusMillis(2).toString());
    }

    @Test
    void theSummaryIsPagedByOffset() {
        var first = given().queryParam("since", start.toString()).queryParam("limit", 2)
                .get("/api/egress/anomalies/summary").then().statusCode(200).body("groups.size()", equalTo(2))
                .extract().jsonPath().getList("groups.qname", String.class);
        var second = given().queryParam("since", start.toString()).queryParam("limit", 2).queryParam("offset", 1)
                .get("/api/egress/anomalies/summary").then().statusCode(200)
                .extract().jsonPath().getList("groups.qname", String.class);
        assertThat(second.get(0)).isEqualTo(first.get(1));
    }

    @Test
    void theCountSumsTheDenialsSinceATimeOfOneCompanyOrAll() {
        given().queryParam("since", start.toString()).queryParam("company_id", ACME.toString())
                .get("/api/egress/anomalies/count").then().statusCode(200)
                .body("company_id", equalTo(ACME.toString())).body("lookups", equalTo(19)).body("events", equalTo(5));
        given().queryParam("since", start.plusSeconds(60).plusMillis(4).toString())
                .queryParam("company_id", ACME.toString())
                .get("/api/egress/anomalies/count").then().statusCode(200)
                .body("lookups", equalTo(2)).body("events", equalTo(2));
        int all = given().queryParam("since", start.toString()).get("/api/egress/anomalies/count").then()
                .statusCode(200).extract().path("lookups");
        assertThat(all).isGreaterThanOrEqualTo(26);
        given().queryParam("since", start.plusSeconds(3600).toString()).queryParam("company_id", GLOBEX.toString())
                .get("/api/egress/anomalies/count").then().statusCode(200)
                .body("lookups", equalTo(0)).body("events", equalTo(0));
    }

    @Test
    void theSummaryAndCountValidateEveryParameter() {
        assertInvalidField(given().queryParam("since", "an hour ago").get("/api/egress/anomalies/summary").then(),
                "since");
        assertInvalidField(given().queryParam("limit", "0").get("/api/egress/anomalies/summary").then(), "limit");
        assertInvalidField(given().queryParam("offset", "-1").get("/api/egress/anomalies/summary").then(), "offset");
        assertInvalidField(given().queryParam("offset", "100001").get("/api/egress/anomalies/summary").then(),
                "offset");
        assertInvalidField(given().queryParam("since", "1h").get("/api/egress/anomalies/count").then(), "since");
        assertInvalidField(given().queryParam("company_id", "acme").get("/api/egress/anomalies/count").then(),
                "company_id");
    }

    private static EgressAnomaly anomaly(UUID company, String qname, String reason, long count, Instant lastSeen) {
        return new EgressAnomaly(UUID.randomUUID(), company, UUID.randomUUID(), UUID.randomUUID(), "c0ffee",
                "172.30.0.21", qname, qtype(reason), reason, count,
                lastSeen.minusSeconds(1), lastSeen, true);
    }

    private static String qtype(String reason) {
        return reason.equals(EgressAnomaly.QTYPE_DENIED) ? "TXT" : reason.startsWith("proxy_") ? "CONNECT" : "A";
    }
}
