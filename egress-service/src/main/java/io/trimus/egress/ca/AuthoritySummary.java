package io.trimus.egress.ca;

import java.time.Instant;

/** What is known of a stored CA without opening it: its name, when it was created and retired. */
public record AuthoritySummary(String fingerprint, Instant createdAt, Instant retiredAt) {

    /** Whether this is the CA new sandboxes get. */
    public boolean active() {
        return retiredAt == null;
    }

    static AuthoritySummary of(StoredAuthority row) {
        return new AuthoritySummary(row.fingerprint, row.createdAt, row.retiredAt);
    }
}
