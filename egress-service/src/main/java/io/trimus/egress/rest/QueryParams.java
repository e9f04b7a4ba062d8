package io.trimus.egress.rest;

import io.trimus.commons.problem.ProblemException;
import io.trimus.events.EgressAnomaly;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/** Parses and validates the query parameters of the anomaly endpoints, naming the one at fault. */
final class QueryParams {
    /** Reasons an anomaly can have; a filter on any other is refused rather than silently empty. */
    static final List<String> REASONS = EgressAnomaly.REASONS;
    /** Longest text a name filter may hold: a DNS name has at most 253 characters. */
    static final int MAX_QNAME_FILTER = 253;

    private QueryParams() {
    }

    /** {@code fallback} when absent, else a whole number from {@code min} to {@code max}. */
    static int wholeNumber(String field, String value, int fallback, int min, int max) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ProblemException.invalidValue(field, value, "must be a whole number from " + min + " to " + max);
    }

    /** {@code fallback} when absent, else an ISO-8601 instant. */
    static Instant instant(String field, String value, Instant fallback, String hint) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw ProblemException.invalidValue(field, value, "must be an ISO-8601 instant such as "
                    + "2026-01-15T09:30:00Z" + hint);
        }
    }

    /** Null when absent, else one of {@link #REASONS}. */
    static String reason(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String reason = value.strip();
        if (!REASONS.contains(reason)) {
            throw ProblemException.invalidValue("reason", value, "must be one of " + String.join(", ", REASONS));
        }
        return reason;
    }

    /** Null when absent, else a number from 0 to 1: the lowest tunnelling score an anomaly may have to be listed. */
    static Double minScore(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        double score;
        try {
            score = Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            score = Double.NaN;
        }
        if (!(score >= 0 && score <= 1)) {
            throw ProblemException.invalidValue("min_score", value, "must be a number from 0 to 1, e.g. 0.5");
        }
        return score;
    }

    /** Null when absent, else the text a name must contain: at most 253 characters, no control characters. */
    static String qnamePart(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String part = value.strip();
        if (part.length() > MAX_QNAME_FILTER) {
            throw ProblemException.invalidValue("qname", value, "must be at most " + MAX_QNAME_FILTER + " characters");
        }
        if (part.chars().anyMatch(Character::isISOControl)) {
            throw ProblemException.invalid("qname", "must not contain control characters");
        }
        return part;
    }
}
