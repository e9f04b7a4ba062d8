package io.trimus.admin.rest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Timestamps as pages show them: UTC to the second, "—" when missing. */
final class Times {
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Times() {
    }

    static String utc(Instant instant) {
        return instant == null ? "—" : UTC.format(instant);
    }

    static String iso(Instant instant) {
        return instant == null ? "" : instant.toString();
    }
}
