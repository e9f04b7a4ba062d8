package io.trimus.egress.canary;

import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryResult;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What a result means for its canary: breached beats everything, then failed, then passed; all of it bounded. */
class CanaryOutcomeTest {
    private static final CanaryCheck BLOCKED = CanaryCheck.mustFail(CanaryCheck.METADATA, "169.254.169.254:80",
            "timed out", false);
    private static final CanaryCheck GOT_THROUGH = CanaryCheck.mustFail(CanaryCheck.IP_LITERAL, "1.1.1.1:443",
            "connected", true);
    private static final CanaryCheck ADMITTED = CanaryCheck.mustWork(CanaryCheck.ALLOWED_HOST,
            "CONNECT api.github.com:443 via 172.30.0.1:3128", "HTTP 200", true);
    private static final CanaryCheck OVER_BLOCKED = CanaryCheck.mustWork(CanaryCheck.ALLOWED_HOST,
            "CONNECT api.github.com:443 via 172.30.0.1:3128", "HTTP 403", false);

    @Test
    void everythingAsPromisedPasses() {
        assertThat(of(List.of(BLOCKED, ADMITTED), null).status()).isEqualTo(Canary.PASSED);
        assertThat(of(List.of(BLOCKED, CanaryCheck.skipped(CanaryCheck.ALLOWED_HOST, CanaryCheck.ALLOWED, "none")),
                null).status()).isEqualTo(Canary.PASSED);
    }

    @Test
    void aBreachIsABreachEvenWhenTheProbeAlsoFailedOrOverBlocked() {
        CanaryOutcome outcome = of(List.of(BLOCKED, GOT_THROUGH, OVER_BLOCKED), "the probe was killed at 60 s");
        assertThat(outcome.status()).isEqualTo(Canary.BREACHED);
        assertThat(outcome.breaches()).containsExactly(GOT_THROUGH);
        assertThat(outcome.error()).isEqualTo("the probe was killed at 60 s");
    }

    @Test
    void aProbeThatCouldNotRunOrOverBlockedFailsSayingWhy() {
        assertThat(of(List.of(), "no image").status()).isEqualTo(Canary.FAILED);
        assertThat(of(List.of(), null).error()).isEqualTo("the probe reported no checks");
        CanaryOutcome over = of(List.of(BLOCKED, OVER_BLOCKED), null);
        assertThat(over.status()).isEqualTo(Canary.FAILED);
        assertThat(over.error()).contains("allowed_host");
    }

    @Test
    void whatAnotherServiceSentIsBounded() {
        String huge = "x".repeat(10_000);
        List<CanaryCheck> many = java.util.stream.IntStream.range(0, 100)
                .mapToObj(i -> CanaryCheck.mustFail(huge, huge, huge, false)).toList();
        CanaryOutcome outcome = of(many, huge);
        assertThat(outcome.checks()).hasSize(CanaryOutcome.MAX_CHECKS).allSatisfy(c -> {
            assertThat(c.name()).hasSizeLessThanOrEqualTo(40);
            assertThat(c.target()).hasSizeLessThanOrEqualTo(CanaryOutcome.MAX_TEXT);
            assertThat(c.got()).hasSizeLessThanOrEqualTo(CanaryOutcome.MAX_TEXT);
        });
        assertThat(outcome.error()).hasSizeLessThanOrEqualTo(CanaryOutcome.MAX_ERROR);
    }

    @Test
    void aBreachAnomalyNamesTheHostAndPortTried() {
        assertThat(CanaryBreaches.qname(CanaryCheck.mustFail("x", "CONNECT 1.1.1.1:443 via 172.30.0.1:3128", "200",
                true))).isEqualTo("1.1.1.1:443");
        assertThat(CanaryBreaches.qname(CanaryCheck.mustFail("x",
                "GET http://169.254.169.254/latest/meta-data/ via 172.30.0.1:3128", "200", true)))
                .isEqualTo("169.254.169.254");
        assertThat(CanaryBreaches.qname(CanaryCheck.mustFail("x", "172.30.0.1:22", "refused", true)))
                .isEqualTo("172.30.0.1:22");
        assertThat(CanaryBreaches.qname(CanaryCheck.mustFail("bridge_route", null, "refused", true)))
                .isEqualTo("bridge_route");
    }

    private static CanaryOutcome of(List<CanaryCheck> checks, String error) {
        return CanaryOutcome.of(new CanaryResult(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), checks,
                error, "adapter-1", Instant.now()));
    }
}
