package io.trimus.egress.canary;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.restassured.http.ContentType;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who the schedule gives a canary ({@link CanaryRepository#due}): a company egress-service knows that enforces its
 * policy and has had no canary within the interval; not one in report mode, not one whose canary is running, not one
 * checked lately, not one egress-service has never heard of. (The schedule itself is off in tests:
 * {@code %test.trimus.egress.canary.interval=0s}.)
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class CanaryRepositoryTest {
    private static final Duration INTERVAL = Duration.ofMinutes(15);
    /** Large enough that every company of every test in this database is listed. */
    private static final int ALL = 1_000_000;

    @Inject
    CanaryRepository canaries;

    @Test
    void aCompanyIsDueWhenItEnforcesAndWasNotCheckedWithinTheInterval() throws Throwable {
        UUID listed = listed();
        UUID reporting = listed();
        given().contentType(ContentType.JSON).body(Map.of("mode", "report"))
                .put("/api/companies/{c}/egress/policy", reporting).then().statusCode(200);
        UUID running = listed();
        await(() -> canaries.claim(UUID.randomUUID(), running, Canary.SCHEDULED));
        UUID checkedLately = listed();
        UUID lately = UUID.randomUUID();
        await(() -> canaries.claim(lately, checkedLately, Canary.SCHEDULED));
        await(() -> canaries.finish(lately, checkedLately, "passed", "[]", null, "test", Instant.now()));
        UUID unknown = UUID.randomUUID();

        List<UUID> due = await(() -> canaries.due(INTERVAL, ALL));

        assertThat(due).contains(listed).doesNotContain(reporting, running, checkedLately, unknown);
        assertThat(await(() -> canaries.due(Duration.ofMillis(1), ALL))).as("once the interval has passed")
                .contains(listed, checkedLately).doesNotContain(reporting, running, unknown);
    }

    private static UUID listed() {
        UUID company = UUID.randomUUID();
        given().contentType(ContentType.JSON).body(Map.of("entries", List.of("api.github.com")))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
        return company;
    }

    private static <T> T await(java.util.function.Supplier<io.smallrye.mutiny.Uni<T>> work) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> TenantTransactions.acrossCompanies(work));
    }
}
