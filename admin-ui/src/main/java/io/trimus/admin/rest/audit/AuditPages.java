package io.trimus.admin.rest.audit;

import io.trimus.admin.client.AuditApi;
import io.trimus.admin.rest.PageNotFound;

import java.util.UUID;

/** Paging of the audit pages: how many records a page shows and the "older" link from run-service's next_before. */
final class AuditPages {
    static final int SIZE = 50;

    private AuditPages() {
    }

    /** The {@code before} query parameter as a record id; null for the newest page. */
    static UUID before(String before) {
        return before == null || before.isBlank() ? null : PageNotFound.id("audit page", before.strip());
    }

    /** The link to the next older page, or null when this page is the last. */
    static String older(String base, AuditApi.AuditPage page) {
        return page.nextBefore() == null ? null : base + "?before=" + page.nextBefore();
    }
}
