package io.trimus.run.service.run;

import io.trimus.commons.problem.ProblemException;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The period a usage summary covers, [since, until): the last {@link #DEFAULT} unless asked otherwise, never longer
 * than {@link #LONGEST}, so one summary never sums more than a year of a company's runs.
 *
 * @param since the first instant counted
 * @param until the first instant no longer counted
 */
public record UsagePeriod(Instant since, Instant until) {
    /** The period summed when the request names none. */
    public static final Duration DEFAULT = Duration.ofDays(30);
    /** The longest period summed at once. */
    public static final Duration LONGEST = Duration.ofDays(366);
    private static final int MAX_CHARS = 64;
    private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LAST = Instant.parse("+10000-01-01T00:00:00Z");

    /**
     * The period of query parameters {@code since} and {@code until} (ISO-8601 instants, either or both absent):
     * {@code until} defaults to {@code now}, {@code since} to {@link #DEFAULT} before {@code until}. A 400 problem
     * naming the field when one is not an instant, {@code until} is not after {@code since} or the period is longer
     * than {@link #LONGEST}.
     */
    public static UsagePeriod of(String since, String until, Instant now) {
        Instant end = blank(until) ? now : instant("until", until);
        Instant start = blank(since) ? end.minus(DEFAULT) : instant("since", since);
        if (!end.isAfter(start)) {
            throw blank(until) ? ProblemException.invalid("since", "must be before until (now when not given)")
                    : ProblemException.invalid("until", "must be after since");
        }
        if (Duration.between(start, end).compareTo(LONGEST) > 0) {
            throw ProblemException.invalid("since", "must be at most " + LONGEST.toDays() + " days before until");
        }
        return new UsagePeriod(start, end);
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static Instant instant(String field, String value) {
        try {
            if (value.length() <= MAX_CHARS) {
                Instant parsed = OffsetDateTime.parse(value.strip()).toInstant();
                if (parsed.isBefore(FIRST) || !parsed.isBefore(LAST)) { // PostgreSQL's timestamps end in 294276
                    throw ProblemException.invalidValue(field, value, "must be between the years 1 and 9999");
                }
                return parsed;
            }
        } catch (DateTimeParseException e) {
            // refused below
        }
        throw ProblemException.invalidValue(field, value,
                "must be an ISO-8601 instant with its offset, e.g. 2026-01-31T00:00:00Z");
    }
}
