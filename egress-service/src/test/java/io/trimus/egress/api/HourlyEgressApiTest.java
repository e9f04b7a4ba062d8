package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.events.EgressAnomaly;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.egress.api.AnomalyTopic.anomaly;
import static io.trimus.egress.api.EgressApi.hourly;
import static io.trimus.egress.api.EgressApi.hourlyOfAll;
import static io.trimus.egress.connection.TestConnections.allowed;
import static io.trimus.egress.connection.TestConnections.refused;
import static io.trimus.egress.connection.TestConnections.sandbox;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;

/**
 * The dashboard's chart: allowed connections (from the connection record) and denials (the counts of the anomaly
 * rows, through the real broker and consumer) per UTC hour, exactly the hours asked for, empty hours zero, a row on
 * an hour's first instant in that hour.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class HourlyEgressApiTest {
    // the first event through a new consumer group can take ~10 s
    private static final Duration STORED = Duration.ofSeconds(40);
    private static final Duration MICRO = Duration.of(1, ChronoUnit.MICROS);

    private static AnomalyTopic topic;

    @Inject
    ConnectionRecorder recorder;

    @BeforeAll
    static void connect() {
        topic = new AnomalyTopic();
    }

    @AfterAll
    static void disconnect() {
        topic.close();
    }

    @Test
    void eachHourCountsAllowedConnectionsAndEnforcedDenialsAndEmptyHoursAreZero() {
        // the rows below are placed in the 24 hours up to the current one: not worth racing the hour's end
        await().atMost(Duration.ofSeconds(100)).pollInterval(Duration.ofSeconds(1))
                .until(() -> secondsLeftInHour(Instant.now()) > 90);
        Instant thisHour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Instant from = thisHour.minus(Duration.ofHours(23));
        UUID company = UUID.randomUUID();
        Sandbox sandbox = sandbox(company, UUID.randomUUID());

        recorder.record(allowed(sandbox, "a.example", 443, 1, 1, from));                  // hour 0, its first instant
        recorder.record(allowed(sandbox, "a.example", 443, 1, 1, from.minus(MICRO)));     // before the window
        recorder.record(allowed(sandbox, "a.example", 443, 1, 1, thisHour.minusSeconds(5 * 3600 - 600))); // hour 18
        recorder.record(allowed(sandbox, "a.example", 443, 1, 1, thisHour.minusSeconds(5 * 3600 - 601))); // hour 18
        recorder.record(allowed(sandbox, "a.example", 443, 1, 1, thisHour.minus(MICRO))); // hour 22, its last instant
        recorder.record(allowed(sandbox, "a.example", 443, 1, 1, thisHour));              // hour 23, its first instant
        recorder.record(refused(sandbox, "b.example", 443, "proxy_not_allowlisted", thisHour)); // not allowed
        // report mode let this one through: it is no denial
        EgressAnomaly reported = anomaly(company, "c.example", 9, thisHour.plusSeconds(1));
        EgressAnomaly letThrough = new EgressAnomaly(reported.id(), company, reported.agentId(), reported.runId(),
                reported.containerId(), reported.sourceIp(), reported.qname(), "TLS",
                EgressAnomaly.PROXY_NOT_ALLOWLISTED, reported.count(), reported.firstSeen(), reported.lastSeen(),
                false);
        topic.publish(
                anomaly(company, "d.example", 3, thisHour.minusSeconds(2 * 3600)),           // hour 21
                anomaly(company, "d.example", 4, thisHour.minusSeconds(3600).minus(MICRO)), // hour 21
                anomaly(company, "d.example", 5, from.minus(MICRO)),                         // before the window
                anomaly(company, "d.example", 2, thisHour.plusSeconds(2)),                   // hour 23
                letThrough);

        long[] allowed = new long[24];
        allowed[0] = 1;
        allowed[18] = 2;
        allowed[22] = 1;
        allowed[23] = 1;
        long[] denied = new long[24];
        denied[21] = 7;
        denied[23] = 2;
        await().atMost(STORED).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            JsonPath chart = hourly(company, Map.of()).statusCode(200).extract().jsonPath();
            assertThat(series(chart, "allowed")).containsExactly(allowed);
            assertThat(series(chart, "denied")).containsExactly(denied);
        });
        List<String> hours = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            hours.add(from.plus(Duration.ofHours(i)).toString());
        }
        hourly(company, Map.of("hours", 24)).statusCode(200)
                .body("from", equalTo(from.toString()))
                .body("to", equalTo(thisHour.plus(Duration.ofHours(1)).toString()))
                .body("hours.hour", equalTo(hours));

        // the overview counts every company: at least this one's in each hour
        JsonPath all = hourlyOfAll(Map.of()).statusCode(200).extract().jsonPath();
        assertThat(all.getString("from")).isEqualTo(from.toString());
        long[] allAllowed = series(all, "allowed");
        long[] allDenied = series(all, "denied");
        for (int i = 0; i < 24; i++) {
            assertThat(allAllowed[i]).isGreaterThanOrEqualTo(allowed[i]);
            assertThat(allDenied[i]).isGreaterThanOrEqualTo(denied[i]);
        }
        // fewer hours: the last ones
        hourly(company, Map.of("hours", 2)).statusCode(200)
                .body("hours.allowed", equalTo(List.of(1, 1)))
                .body("hours.denied", equalTo(List.of(0, 2)));
    }

    @Test
    void aCompanyWithoutTrafficGetsEveryHourWithZeros() {
        hourly(UUID.randomUUID(), Map.of()).statusCode(200)
                .body("hours", hasSize(24))
                .body("hours.allowed", everyItem(equalTo(0)))
                .body("hours.denied", everyItem(equalTo(0)));
        hourly(UUID.randomUUID(), Map.of("hours", 168)).statusCode(200)
                .body("hours.allowed", equalTo(Collections.nCopies(168, 0)));
        hourlyOfAll(Map.of("hours", 1)).statusCode(200).body("hours", hasSize(1));
        hourlyOfAll(Map.of("hours", 168)).statusCode(200).body("hours", hasSize(168));
    }

    @Test
    void hoursOutsideOneTo168AndBadCompanyIdsAreRefused() {
        for (String hours : List.of("0", "169", "-1", "day", "1.5")) {
            assertInvalidField(hourly(UUID.randomUUID(), Map.of("hours", hours)), "hours");
            assertInvalidField(hourlyOfAll(Map.of("hours", hours)), "hours");
        }
        assertInvalidField(hourly("acme", Map.of()), "company_id");
    }

    private static long[] series(JsonPath chart, String name) {
        return chart.getList("hours." + name, Long.class).stream().mapToLong(Long::longValue).toArray();
    }

    private static long secondsLeftInHour(Instant now) {
        return Duration.between(now, now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1))).toSeconds();
    }
}
