package io.trimus.commons.access;

import io.quarkus.arc.Arc;
import io.trimus.events.AuditRecord;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Who made a change and from where, for its audit record: the request's caller and source while a request is being
 * served, Trimus itself without a source otherwise (at start, from a consumer).
 */
@ApplicationScoped
public class AuditOrigin {
    private final CurrentCaller current;

    AuditOrigin(CurrentCaller current) {
        this.current = current;
    }

    /** The request's actor, or Trimus itself outside a request or before the caller is known. */
    public AuditRecord.Actor actor() {
        AuditRecord.Actor actor = inRequest() ? current.actor() : null;
        return actor == null ? AuditRecord.Actor.TRIMUS : actor;
    }

    /** The request's source, or none outside a request. */
    public AuditRecord.Source source() {
        return inRequest() ? current.source() : AuditRecord.Source.NONE;
    }

    private static boolean inRequest() {
        return Arc.container().requestContext().isActive();
    }
}
