package io.trimus.run.service.identity.password;

import io.trimus.run.config.TrimusConfigs;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class SignInThrottleTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final SignInThrottle throttle = new SignInThrottle(TrimusConfigs.with(
            "trimus.auth.max-sign-in-failures", "3", "trimus.auth.sign-in-lockout", "15m"));

    @Test
    void theFailuresUpToTheLimitAreAllowedAndThenRefusedUntilTheWindowEnds() {
        throttle.failed("a@example.com", T0);
        throttle.failed("a@example.com", T0.plusSeconds(60));
        assertThat(throttle.refusedFor("a@example.com", T0.plusSeconds(61))).isEmpty();
        throttle.failed("a@example.com", T0.plusSeconds(120));

        assertThat(throttle.refusedFor("a@example.com", T0.plusSeconds(121))).contains(Duration.ofSeconds(779));
        assertThat(throttle.refusedFor("b@example.com", T0.plusSeconds(121))).isEmpty();
        assertThat(throttle.refusedFor("a@example.com", T0.plus(Duration.ofMinutes(15)))).isEmpty();
        throttle.failed("a@example.com", T0.plus(Duration.ofMinutes(15)));
        assertThat(throttle.refusedFor("a@example.com", T0.plus(Duration.ofMinutes(15)))).isEmpty();
    }

    @Test
    void aFloodOfMadeUpEmailsNeitherWashesOutALockoutNorLocksOutAnyoneElse() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("target@example.com", T0);
        }
        // twice as many as the map of emails held before (10,000), about what the password checks let through in a window
        for (int i = 0; i < 20_000; i++) {
            throttle.failed("made-up-" + i + "@example.com", T0.plusSeconds(1));
        }
        assertThat(throttle.refusedFor("target@example.com", T0.plusSeconds(2))).isPresent();
        int lockedOut = 0;
        for (int i = 0; i < 1_000; i++) {
            lockedOut += throttle.refusedFor("bystander-" + i + "@example.com", T0.plusSeconds(2)).isPresent() ? 1 : 0;
        }
        assertThat(lockedOut).as("bystanders locked out by the flood").isLessThanOrEqualTo(1);
    }
}
