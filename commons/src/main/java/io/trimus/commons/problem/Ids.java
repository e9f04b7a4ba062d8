package io.trimus.commons.problem;

import java.util.Optional;
import java.util.UUID;

/** Parses ids from paths and bodies into UUIDs, naming the field when one is malformed. */
public final class Ids {
    private static final int UUID_CHARS = 36;

    private Ids() {
    }

    /** The UUID in {@code value}, or a 400 problem naming {@code field}. */
    public static UUID parse(String field, String value) {
        return of(value).orElseThrow(() -> ProblemException.invalid(field, "must be a UUID"));
    }

    /** The UUID in {@code value} written out in full (36 characters), else empty: null, short forms, anything else. */
    public static Optional<UUID> of(String value) {
        try {
            if (value == null || value.length() != UUID_CHARS) { // UUID.fromString also takes short forms: 1-2-3-4-5
                return Optional.empty();
            }
            return Optional.of(UUID.fromString(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
