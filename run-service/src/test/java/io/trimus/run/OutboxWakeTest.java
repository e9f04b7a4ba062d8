package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.run.service.outbox.OutboxStaged;
import io.trimus.testing.TrimusInfraResource;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/**
 * The relay is woken by the transaction that staged an outbox row, once it committed (not by the REST resource): at the
 * moment of the wake, another connection already sees the row.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class OutboxWakeTest {
    @Inject
    Wakes wakes;

    /** What another connection sees of the outbox at each wake, while a test watches. */
    @Singleton
    static class Wakes {
        volatile boolean watching;
        final List<List<String>> seen = new CopyOnWriteArrayList<>();

        void onStaged(@Observes OutboxStaged staged) {
            if (watching) {
                seen.add(Db.texts("select message_key from run.outbox_event where type = ?",
                        "io.trimus.run.requested.v1"));
            }
        }
    }

    @Test
    void anAcceptedRunWakesTheRelayOnceItsRowIsCommitted() {
        String company = Api.createCompany("Wake " + System.nanoTime());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest"));
        wakes.seen.clear();
        wakes.watching = true;
        try {
            String run = given().contentType(ContentType.JSON).body(Map.of("input", "go"))
                    .post("/api/companies/{c}/agents/{a}/runs", company, agent)
                    .then().statusCode(202).extract().path("id");
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> wakes.seen.stream().anyMatch(keys -> keys.contains(run)));
        } finally {
            wakes.watching = false;
        }
    }
}
