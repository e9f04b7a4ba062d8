package io.trimus.run.repository.audit;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** The audit log, newest first: one company's records, or every record (the platform's included). */
@ApplicationScoped
public class AuditEntryRepository implements PanacheRepositoryBase<AuditEntry, UUID> {

    /**
     * Up to {@code limit} records, newest first, of {@code companyId} (every record when null), those older than
     * {@code before} when given: keyset paging on (occurred_at, id), so a page costs the same however deep it is.
     */
    public Uni<List<AuditEntry>> page(UUID companyId, AuditEntry before, int limit) {
        String older = "(occurredAt < :at or (occurredAt = :at and id < :id))";
        String order = " order by occurredAt desc, id desc";
        Parameters params = new Parameters();
        String where;
        if (companyId == null) {
            where = before == null ? "" : older;
        } else {
            params.and("company", companyId);
            where = before == null ? "companyId = :company" : "companyId = :company and " + older;
        }
        if (before != null) {
            params.and("at", before.occurredAt).and("id", before.id);
        }
        var query = where.isEmpty() ? find(order.strip()) : find(where + order, params);
        return query.page(0, limit).list();
    }
}
