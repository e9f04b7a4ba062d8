package io.trimus.admin.view;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Timestamps as pages show them: UTC to the second, "—" when missing. */
public final class Times {
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Times() {
    }

    /** E.g. {@code 2026-12-01 09:00:00 UTC}; "—" for null. */
    public static String utc(Instant instant) {
        return instant == null ? "—" : UTC.format(instant);
    }

    /** ISO-8601, for {@code <time datetime>} and links; empty for null. */
    public static String iso(Instant instant) {
        return instant == null ? "" : instant.toString();
    }
}
