package io.trimus.egress.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.AuditOrigin;
import io.trimus.events.AuditRecord;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.UUID;

/**
 * Where egress-service's changes leave their audit record: staged in the change's own transaction, published on
 * {@code trimus.audit} by {@link AuditRelay} after commit, so a change made while Kafka is down is not lost from the
 * trail and a change that rolled back leaves none.
 */
@ApplicationScoped
public class AuditOutbox {
    private final AuditOutboxRepository rows;
    private final AuditOrigin origin;
    private final ObjectMapper json;

    AuditOutbox(AuditOutboxRepository rows, AuditOrigin origin, ObjectMapper json) {
        this.rows = rows;
        this.origin = origin;
        this.json = json;
    }

    /**
     * Who is making a change and from where, taken from the request being served; take it before the change leaves
     * the request's context (e.g. for work on a context of its own).
     */
    public Stamp stamp() {
        return new Stamp(origin.actor(), origin.source());
    }

    /** The request's caller and source, to be written into a record later. */
    public record Stamp(AuditRecord.Actor actor, AuditRecord.Source source) {
        /** The record of a change made now. */
        public AuditRecord record(UUID companyId, String action, AuditRecord.Target target,
                                  Map<String, Object> details) {
            return AuditRecord.now(actor, source, companyId, action, target, details);
        }
    }

    /** Stages the record in the caller's transaction. */
    public Uni<Void> add(AuditRecord record) {
        AuditOutboxRow row = new AuditOutboxRow();
        row.id = record.id();
        row.messageKey = record.key();
        row.createdAt = record.occurredAt();
        try {
            row.payload = json.writeValueAsString(record);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("audit record cannot be serialised", e));
        }
        return rows.persist(row).replaceWithVoid();
    }
}
