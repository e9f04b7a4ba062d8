package io.trimus.egress.rest;

import java.util.UUID;

/** Parses ids from paths and bodies into UUIDs, naming the field when one is malformed. */
public final class Ids {
    private Ids() {
    }

    public static UUID parse(String field, String value) {
        try {
            if (value.length() != 36) { // UUID.fromString also takes short forms such as 1-2-3-4-5
                throw new IllegalArgumentException(value);
            }
            return UUID.fromString(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ProblemException.invalid(field, "must be a UUID");
        }
    }
}
