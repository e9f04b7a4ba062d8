package io.trimus.run.rest;

import io.trimus.commons.problem.ProblemException;

/** Parses the {@code limit} query parameter of the list endpoints, naming it when it is out of range. */
final class Limits {
    private Limits() {
    }

    /** {@code fallback} when absent, else a whole number from 1 to {@code max}; a 400 problem otherwise. */
    static int parse(String limit, int fallback, int max) {
        if (limit == null || limit.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(limit.strip());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ProblemException.invalid("limit", "must be a whole number from 1 to " + max);
    }
}
