package io.trimus.admin.view;

import io.trimus.admin.client.EgressServiceApi.Canary;
import io.trimus.admin.client.EgressServiceApi.CanaryCheck;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A canary as its panel shows it: only a check expected blocked that came out allowed is a breach, the page turns red
 * only for a breached canary, a status the contract does not know is no colour of its own, the history is bounded.
 */
class CanaryViewsTest {
    private static final UUID COMPANY = UUID.fromString("0d7a3b1e-5c1f-4a4e-9f7c-2b8e1d6c3a90");
    private static final Instant FINISHED = Instant.parse("2026-12-06T07:00:09Z");

    @Test
    void onlyACheckExpectedBlockedThatWasAllowedIsABreach() {
        assertThat(new CanaryCheck("bridge_route", "172.30.0.1:22", "blocked", "open", "allowed").breached()).isTrue();
        assertThat(new CanaryCheck("unlisted_name", "x.invalid", "blocked", "NXDOMAIN", "blocked").breached()).isFalse();
        assertThat(new CanaryCheck("allowed_host", "api.github.com:443", "allowed", "HTTP 200", "allowed").breached())
                .isFalse();
        assertThat(new CanaryCheck("bridge_route", "172.30.0.1:22", "blocked", "not tried", "skipped").breached())
                .isFalse();
    }

    @Test
    void aBreachedCanaryNamesTheChecksThatGotThroughAndTurnsThePageRed() {
        CanaryViews.Panel panel = CanaryViews.of(COMPANY.toString(), canary("breached", List.of(
                new CanaryCheck("unlisted_name", "x.invalid", "blocked", "NXDOMAIN", "blocked"),
                new CanaryCheck("bridge_route", "172.30.0.1:22", "blocked", "open", "allowed"),
                new CanaryCheck("metadata", "169.254.169.254:80", "blocked", "HTTP 200", "allowed")), List.of()), null);
        assertThat(panel.breached()).isTrue();
        assertThat(panel.breachedNames()).isEqualTo("bridge_route, metadata");
        assertThat(panel.checks()).extracting(CanaryViews.CheckRow::breached).containsExactly(false, true, true);
        assertThat(panel.finishedAt()).isEqualTo("2026-12-06 07:00:09 UTC");
        assertThat(panel.interval()).isEqualTo("every 15 minutes");
    }

    @Test
    void otherStatusesKeepThePageAsItIs() {
        for (String status : List.of("passed", "failed", "running", "none")) {
            CanaryViews.Panel panel = CanaryViews.of(COMPANY.toString(), canary(status, List.of(), List.of()), null);
            assertThat(panel.breached()).as(status).isFalse();
            assertThat(panel.status()).isEqualTo(status);
        }
        assertThat(CanaryViews.statusText("none")).isEqualTo("never run");
        assertThat(CanaryViews.status("exploded")).isEqualTo("unknown");
        assertThat(CanaryViews.status(null)).isEqualTo("unknown");
        assertThat(CanaryViews.failed(COMPANY.toString(), "egress-service is not reachable").loaded()).isFalse();
    }

    @Test
    void theHistoryShowsTwentyAndTheIntervalIsInWords() {
        Canary earlier = canary("passed", List.of(), null);
        Canary canary = canary("passed", List.of(), Collections.nCopies(25, earlier));
        assertThat(CanaryViews.of(COMPANY.toString(), canary, null).history()).hasSize(20)
                .allMatch(h -> h.at().equals("2026-12-06 07:00:09 UTC"));
        assertThat(CanaryViews.interval("PT1H")).isEqualTo("every hour");
        assertThat(CanaryViews.interval("PT6H")).isEqualTo("every 6 hours");
        assertThat(CanaryViews.interval("PT1M")).isEqualTo("every minute");
        assertThat(CanaryViews.interval("PT30S")).isEqualTo("every 30 seconds");
        assertThat(CanaryViews.interval("900.000000000")).isEqualTo("every 15 minutes");
        assertThat(CanaryViews.interval("3600")).isEqualTo("every hour");
        assertThat(CanaryViews.interval("soon")).isNull();
        assertThat(CanaryViews.interval(null)).isNull();
    }

    @Test
    void aLongAnswerFromTheProbeIsCut() {
        String got = "x".repeat(5000);
        CanaryViews.Panel panel = CanaryViews.of(COMPANY.toString(), canary("failed",
                List.of(new CanaryCheck("allowed_host", "api.github.com:443", "allowed", got, "blocked")), List.of()),
                null);
        assertThat(panel.checks().get(0).got()).hasSize(CanaryViews.MAX_SHOWN + 1).endsWith("…");
    }

    private static Canary canary(String status, List<CanaryCheck> checks, List<Canary> history) {
        boolean never = "none".equals(status);
        return new Canary(COMPANY, never ? null : UUID.randomUUID(), status, never ? null : "scheduled",
                never ? null : FINISHED.minusSeconds(9), never || "running".equals(status) ? null : FINISHED, null,
                checks, history, "PT15M");
    }
}
