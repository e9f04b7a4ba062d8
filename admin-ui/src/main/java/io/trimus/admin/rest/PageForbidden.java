package io.trimus.admin.rest;

/** A page or action the caller's role does not allow (an operators' page for a company admin); shown as a 403 sentence. */
public class PageForbidden extends RuntimeException {
    public PageForbidden(String sentence) {
        super(sentence, null, false, false);
    }
}
