package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.EgressAnomaly;
import io.trimus.testing.InfraControl;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import static io.trimus.egress.api.AnomalyTopic.anomaly;
import static io.trimus.egress.api.EgressApi.anomalies;
import static io.trimus.egress.api.EgressApi.anomalyIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class NoAnomalyLostTest {
    private static final int BURST = 200;

    @Test
    void everyAnomalyOfABurstEndsAsExactlyOneCountedRowAcrossABrokerRestart() {
        UUID company = UUID.randomUUID();
        Instant start = Instant.now();
        List<EgressAnomaly> burst = IntStream.range(0, BURST)
                .mapToObj(i -> anomaly(company, "burst" + i + ".example", i + 1, start.plusMillis(i)))
                .toList();
        long expectedCount = (long) BURST * (BURST + 1) / 2;
        InfraControl infra = InfraControl.fromConfig();

        try (AnomalyTopic topic = new AnomalyTopic()) {
            topic.publish(burst.subList(0, BURST / 2));
            infra.stopKafka(); // the consumer is still working through the first half
            try {
                assertThat(anomalyIds(company).size()).isLessThanOrEqualTo(BURST / 2);
            } finally {
                infra.startKafka();
            }
            topic.publish(burst.subList(BURST / 2, BURST));
            topic.publish(burst.subList(0, 20)); // redelivered, as after a producer retry
        }

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .until(() -> anomalyIds(company).size() >= BURST);
        List<Map<String, Object>> rows = anomalies(company, Map.of("limit", 500)).statusCode(200)
                .extract().jsonPath().getList("");
        assertThat(rows).hasSize(BURST);
        assertThat(rows.stream().map(r -> r.get("id")).distinct()).hasSize(BURST);
        assertThat(rows.stream().mapToLong(r -> ((Number) r.get("count")).longValue()).sum()).isEqualTo(expectedCount);
        assertThat(rows.stream().map(r -> r.get("id")).toList())
                .containsExactlyInAnyOrderElementsOf(burst.stream().map(e -> e.id().toString()).toList());
    }
}
