package io.trimus.run.service;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class SignInThrottleTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final SignInThrottle throttle = new SignInThrottle(3, Duration.ofMinutes(15));

    @Test
    void theFailuresUpToTheLimitAreAllowedAndThenRefusedUntilTheWindowEnds() {
        throttle.failed("a@example.com", T0);
        throttle.failed("a@example.com", T0.plusSeconds(60));
        assertThat(throttle.refusedFor("a@example.com", T0.plusSeconds(61))).isEmpty();
        throttle.failed("a@example.com", T0.plusSeconds(120));

        assertThat(throttle.refusedFor("a@example.com", T0.plusSeconds(121))).contains(Duration.ofSeconds(779));
        assertThat(throttle.refusedFor("b@example.com", T0.plusSeconds(121))).isEmpty();
        assertThat(throttle.refusedFor("a@example.com", T0.plus(Duration.ofMinutes(15)))).isEmpty();
    }

    @Test
    void aSuccessClearsTheCount() {
        throttle.failed("a@example.com", T0);
        throttle.failed("a@example.com", T0);
        throttle.succeeded("a@example.com");
        throttle.failed("a@example.com", T0);
        throttle.failed("a@example.com", T0);

        assertThat(throttle.refusedFor("a@example.com", T0)).isEmpty();
    }

    @Test
    void aFloodOfMadeUpEmailsNeverGrowsTheMapButTheTriedAccountStaysCounted() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("target@example.com", T0);
        }
        for (int i = 0; i < SignInThrottle.TRACKED_EMAILS - 1; i++) {
            throttle.failed("made-up-" + i + "@example.com", T0);
        }
        assertThat(throttle.refusedFor("target@example.com", T0)).isPresent();
        for (int i = 0; i < SignInThrottle.TRACKED_EMAILS; i++) {
            throttle.failed("more-" + i + "@example.com", T0);
        }
        // bounded: the oldest counts go first
        assertThat(throttle.refusedFor("target@example.com", T0)).isEmpty();
    }
}
