package io.trimus.run.service;

import java.util.UUID;

/** Parses ids from paths and bodies into UUIDs, naming the field when one is malformed. */
public final class Ids {
    private Ids() {
    }

    public static UUID parse(String field, String value) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ProblemException.invalid(field, "must be a UUID");
        }
    }
}
