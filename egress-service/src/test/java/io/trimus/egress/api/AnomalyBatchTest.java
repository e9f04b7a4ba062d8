package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.trimus.egress.anomaly.store.AnomalyBroadcast;
import io.trimus.egress.anomaly.store.AnomalyConsumer;
import io.trimus.egress.anomaly.store.AnomalyEvent;
import io.trimus.events.EgressAnomaly;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.AnomalyApiTest.SKIPPED;
import static io.trimus.egress.api.AnomalyApiTest.metric;
import static io.trimus.egress.api.AnomalyTopic.anomaly;
import static io.trimus.egress.api.EgressApi.anomalyIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/** What one poll of the anomaly topic becomes: the consumer stores a batch in one go, each id once. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AnomalyBatchTest {
    @Inject
    AnomalyConsumer consumer;
    @Inject
    AnomalyBroadcast broadcast;

    @Test
    void aBatchWithRedeliveredIdsAnUnreadableAndAPoisonRecordStoresExactlyTheRestOnce() throws Throwable {
        UUID company = UUID.randomUUID();
        EgressAnomaly storedBefore = anomaly(company, "stored-before.example");
        consume(storedBefore);
        EgressAnomaly a = anomaly(company, "a.example");
        EgressAnomaly b = anomaly(company, "b.example");
        // too large for the last_seen index's entry (a host header can be this long): refused however often tried
        EgressAnomaly poison = anomaly(company, randomLabels(20_000) + ".example");
        double persisted = metric("trimus_egress_anomalies_persisted_total");
        double duplicates = metric(SKIPPED + "\\{reason=\"duplicate\"");
        double malformed = metric(SKIPPED + "\\{reason=\"malformed\"");
        double failed = metric(SKIPPED + "\\{reason=\"failed\"");
        AssertSubscriber<AnomalyEvent> live = broadcast.of(company).subscribe()
                .withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        // null: a record that could not be read as an anomaly at all
        consume(a, null, a, poison, storedBefore, b);

        assertThat(anomalyIds(company)).containsExactlyInAnyOrder(
                storedBefore.id().toString(), a.id().toString(), b.id().toString());
        assertThat(live.getItems()).extracting(row -> row.id).containsExactly(a.id(), b.id());
        assertThat(metric("trimus_egress_anomalies_persisted_total") - persisted).isEqualTo(2);
        assertThat(metric(SKIPPED + "\\{reason=\"duplicate\"") - duplicates).isEqualTo(2);
        assertThat(metric(SKIPPED + "\\{reason=\"malformed\"") - malformed).isEqualTo(1);
        assertThat(metric(SKIPPED + "\\{reason=\"failed\"") - failed).isEqualTo(1);
        live.cancel();
    }

    @Test
    void aBatchLargerThanOneInsertStatementIsStoredWholeWithExactCounts() throws Throwable {
        UUID company = UUID.randomUUID();
        Instant start = Instant.now();
        List<EgressAnomaly> batch = IntStream.range(0, 2500)
                .mapToObj(i -> anomaly(company, "n" + i + ".example", i + 1, start.plusMillis(i)))
                .toList();

        consume(batch.toArray(EgressAnomaly[]::new));
        consume(batch.subList(990, 1010).toArray(EgressAnomaly[]::new)); // redelivered across a statement boundary

        given().queryParam("since", start.toString()).queryParam("company_id", company.toString())
                .get("/api/egress/anomalies/count").then().statusCode(200)
                .body("events", equalTo(2500)).body("lookups", equalTo(2500 * 2501 / 2));
    }

    private static String randomLabels(int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-";
        var random = new java.util.Random(17);
        StringBuilder name = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            name.append(i % 64 == 63 ? '.' : alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return name.toString();
    }

    private void consume(EgressAnomaly... events) throws Throwable {
        List<EgressAnomaly> batch = new ArrayList<>(Arrays.asList(events));
        VertxContextSupport.subscribeAndAwait(() -> consumer.consume(batch));
    }
}
