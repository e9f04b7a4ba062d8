package io.trimus.egress.audit;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** The audit records waiting for Kafka, oldest first. */
@ApplicationScoped
public class AuditOutboxRepository implements PanacheRepositoryBase<AuditOutboxRow, Long> {

    /** Up to {@code limit} waiting records in the order they were written. */
    public Uni<List<AuditOutboxRow>> oldest(int limit) {
        return find("order by seq").page(0, limit).list();
    }
}
