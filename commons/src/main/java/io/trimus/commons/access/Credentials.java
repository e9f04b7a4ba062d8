package io.trimus.commons.access;

import io.smallrye.mutiny.Uni;
import io.trimus.events.auth.Caller;

/**
 * How a service learns who a bearer credential speaks for: run-service reads its own tables, the other services ask
 * run-service ({@code GET /api/me}). Each service that indexes commons provides exactly one bean of it.
 */
public interface Credentials {
    /** The caller the credential speaks for, or null when it is unknown, expired or revoked. */
    Uni<Caller> caller(String credential);

    /** True when the credential is Trimus's own service credential (internal endpoints). */
    boolean isService(String credential);
}
