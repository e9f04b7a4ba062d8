package io.trimus.run.service.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.AuditOrigin;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.run.repository.audit.AuditEntry;
import io.trimus.run.repository.audit.AuditEntryRepository;
import io.trimus.run.service.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The audit log: a change records who made it, when and from where in the change's own transaction, stored here and
 * staged in the outbox for {@code trimus.audit}, so neither the row nor the event is lost when Kafka is down and
 * neither exists for a change that rolled back. Records of other services arrive from the topic and are stored once.
 */
@ApplicationScoped
public class AuditLog {
    private final AuditEntryRepository entries;
    private final Outbox outbox;
    private final AuditOrigin origin;
    private final ObjectMapper json;

    AuditLog(AuditEntryRepository entries, Outbox outbox, AuditOrigin origin, ObjectMapper json) {
        this.entries = entries;
        this.outbox = outbox;
        this.origin = origin;
        this.json = json;
    }

    /**
     * Records a change by the request's caller (Trimus itself outside a request); joins the caller's transaction.
     *
     * @param companyId null for a change of the platform
     */
    public Uni<AuditRecord> record(UUID companyId, String action, AuditRecord.Target target,
                                   Map<String, Object> details) {
        return record(origin.actor(), companyId, action, target, details);
    }

    /** Records a change by {@code actor}, e.g. the user who just signed in; joins the caller's transaction. */
    public Uni<AuditRecord> record(AuditRecord.Actor actor, UUID companyId, String action, AuditRecord.Target target,
                                   Map<String, Object> details) {
        AuditRecord record = AuditRecord.now(actor, origin.source(), companyId, action, target, details);
        return entries.persist(entry(record))
                .call(stored -> outbox.add(Topics.AUDIT, EventTypes.AUDIT_RECORD, record.id(), record.key(), record))
                .replaceWith(record);
    }

    /** Stores a record published by a service; false when it is known already (run-service's own, a redelivery). */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Boolean> store(AuditRecord record) {
        return entries.findById(record.id()).flatMap(known -> known != null ? Uni.createFrom().item(false)
                : entries.persist(entry(record)).replaceWith(true));
    }

    /**
     * Up to {@code limit} records, newest first, of {@code companyId} (every record, the platform's included, when
     * null), older than the record {@code before} when given; a 400 problem on {@code before} when it names no record
     * of that log.
     */
    @TenantTransaction
    public Uni<List<JsonNode>> page(UUID companyId, UUID before, int limit) {
        Uni<AuditEntry> last = before == null ? Uni.createFrom().nullItem() : entries.findById(before)
                .map(found -> found == null || companyId != null && !companyId.equals(found.companyId) ? null : found)
                .onItem().ifNull().failWith(() -> ProblemException.invalid("before", "must be the id of the last"
                        + " record of the previous page; " + before + " is none"));
        return last.flatMap(after -> entries.page(companyId, after, limit))
                .map(page -> page.stream().map(entry -> entry.record).toList());
    }

    /** Details with the entries in the order given; null values are kept (a secret granted to every agent). */
    public static Map<String, Object> details(Object... keysAndValues) {
        Map<String, Object> details = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            details.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return details;
    }

    private AuditEntry entry(AuditRecord record) {
        AuditEntry entry = new AuditEntry();
        entry.id = record.id();
        entry.companyId = record.companyId();
        entry.occurredAt = record.occurredAt();
        entry.action = record.action();
        entry.record = json.valueToTree(record);
        return entry;
    }
}
