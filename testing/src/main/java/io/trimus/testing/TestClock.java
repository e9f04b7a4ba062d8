package io.trimus.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test sets or moves forward, for code that takes a {@link Clock}; safe to read from other threads. */
public final class TestClock extends Clock {
    private volatile Instant now;

    public TestClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock forward by {@code by}. */
    public void advance(Duration by) {
        now = now.plus(by);
    }

    /** Sets the clock to {@code instant}. */
    public void at(Instant instant) {
        now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
