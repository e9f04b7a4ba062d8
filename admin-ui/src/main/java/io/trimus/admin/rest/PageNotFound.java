package io.trimus.admin.rest;

/** A page for something that does not exist, e.g. a company id that is no UUID; shown as a 404 sentence. */
public class PageNotFound extends RuntimeException {
    public PageNotFound(String sentence) {
        super(sentence, null, false, false);
    }

    /** The id from the path as a UUID, or a 404 naming what was looked for. */
    static java.util.UUID id(String kind, String value) {
        try {
            if (value != null && value.length() == 36) {
                return java.util.UUID.fromString(value);
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new PageNotFound("There is no " + kind + " with the id \"" + value + "\".");
    }
}
