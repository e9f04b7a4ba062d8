package io.trimus.commons.problem;

import java.util.UUID;

/** Parses ids from paths and bodies into UUIDs, naming the field when one is malformed. */
public final class Ids {
    private static final int UUID_CHARS = 36;

    private Ids() {
    }

    /** The UUID in {@code value}, or a 400 problem naming {@code field}. */
    public static UUID parse(String field, String value) {
        try {
            if (value.length() != UUID_CHARS) { // UUID.fromString also takes short forms such as 1-2-3-4-5
                throw new IllegalArgumentException(value);
            }
            return UUID.fromString(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ProblemException.invalid(field, "must be a UUID");
        }
    }
}
