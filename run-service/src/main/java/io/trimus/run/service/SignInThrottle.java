package io.trimus.run.service;

import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses password sign-ins to an email for a while once too many failed within that while, so a password cannot be
 * guessed at the speed of the cap on concurrent checks. Counted per email whether or not an account has it (the
 * answer must not tell), in memory, for the most recently tried emails only: a flood of made-up emails evicts
 * the oldest counts, never grows the map.
 */
@ApplicationScoped
public class SignInThrottle {
    static final int TRACKED_EMAILS = 10_000;

    private final int maxFailures;
    private final Duration lockout;
    private final Map<String, Failures> failures = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
            return size() > TRACKED_EMAILS;
        }
    };

    @Inject
    SignInThrottle(TrimusConfig config) {
        this(config.auth().maxSignInFailures(), config.auth().signInLockout());
    }

    SignInThrottle(int maxFailures, Duration lockout) {
        this.maxFailures = maxFailures;
        this.lockout = lockout;
    }

    /** How long sign-ins to {@code email} are still refused, if they are. */
    public synchronized Optional<Duration> refusedFor(String email, Instant now) {
        Failures counted = current(email, now);
        if (counted == null || counted.count < maxFailures) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, counted.since.plus(lockout)));
    }

    /** A wrong password (or unknown email) for {@code email}. */
    public synchronized void failed(String email, Instant now) {
        Failures counted = current(email, now);
        failures.put(email, counted == null ? new Failures(1, now) : new Failures(counted.count + 1, counted.since));
    }

    /** A successful sign-in clears the count. */
    public synchronized void succeeded(String email) {
        failures.remove(email);
    }

    private Failures current(String email, Instant now) {
        Failures counted = failures.get(email);
        if (counted != null && !now.isBefore(counted.since.plus(lockout))) {
            failures.remove(email);
            return null;
        }
        return counted;
    }

    private record Failures(int count, Instant since) {
    }
}
