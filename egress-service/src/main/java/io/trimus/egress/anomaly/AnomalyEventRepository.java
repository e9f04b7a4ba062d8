package io.trimus.egress.anomaly;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Persisted anomaly events, read per company, newest first. */
@ApplicationScoped
public class AnomalyEventRepository implements PanacheRepositoryBase<AnomalyEvent, UUID> {
    private static final Sort NEWEST_FIRST = Sort.descending("lastSeen", "id");

    /** Inserts the row inside the current transaction unless its id is stored already; true when inserted. */
    public Uni<Boolean> insertIfAbsent(AnomalyEvent row) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.egress_anomaly_events (id, company_id, agent_id, run_id, "
                        + "container_id, source_ip, qname, qtype, reason, count, first_seen, last_seen, received_at) "
                        + "values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) on conflict (id) do nothing")
                .setParameter(1, row.id)
                .setParameter(2, row.companyId)
                .setParameter(3, row.agentId)
                .setParameter(4, row.runId)
                .setParameter(5, row.containerId)
                .setParameter(6, row.sourceIp)
                .setParameter(7, row.qname)
                .setParameter(8, row.qtype)
                .setParameter(9, row.reason)
                .setParameter(10, row.count)
                .setParameter(11, row.firstSeen)
                .setParameter(12, row.lastSeen)
                .setParameter(13, row.receivedAt)
                .executeUpdate()
                .map(rows -> rows == 1));
    }

    /** The company's latest anomalies by last_seen, only those last seen before {@code before} when given. */
    public Uni<List<AnomalyEvent>> latest(UUID companyId, Instant before, int limit) {
        var query = before == null
                ? find("companyId = ?1", NEWEST_FIRST, companyId)
                : find("companyId = ?1 and lastSeen < ?2", NEWEST_FIRST, companyId, before);
        return query.page(0, limit).list();
    }
}
