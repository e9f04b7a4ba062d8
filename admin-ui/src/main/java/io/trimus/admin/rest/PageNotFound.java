package io.trimus.admin.rest;

import io.trimus.commons.problem.Ids;

import java.util.UUID;

/** A page for something that does not exist, e.g. a company id that is no UUID; shown as a 404 sentence. */
public class PageNotFound extends RuntimeException {
    public PageNotFound(String sentence) {
        super(sentence, null, false, false);
    }

    /** The id from the path as a UUID (commons' rule of what one is), or a 404 naming what was looked for. */
    public static UUID id(String kind, String value) {
        return Ids.of(value).orElseThrow(() -> new PageNotFound("There is no " + kind + " with the id \"" + value
                + "\"."));
    }
}
