package io.trimus.egress.anomaly;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
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
                        + "container_id, source_ip, qname, qtype, reason, count, first_seen, last_seen, received_at, "
                        + "enforced) values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) "
                        + "on conflict (id) do nothing")
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
                .setParameter(14, row.enforced)
                .executeUpdate()
                .map(rows -> rows == 1));
    }

    /**
     * The company's latest anomalies by last_seen, only those last seen before {@code before} when given, with
     * {@code reason} when given, and whose name contains {@code qnamePart} (case-insensitive) when given.
     */
    public Uni<List<AnomalyEvent>> latest(UUID companyId, AnomalyFilter filter, int limit) {
        StringBuilder where = new StringBuilder("companyId = ?1");
        List<Object> params = new ArrayList<>(List.of(companyId));
        if (filter.before() != null) {
            params.add(filter.before());
            where.append(" and lastSeen < ?").append(params.size());
        }
        if (filter.reason() != null) {
            params.add(filter.reason());
            where.append(" and reason = ?").append(params.size());
        }
        if (filter.qnamePart() != null) {
            params.add("%" + likeEscaped(filter.qnamePart().toLowerCase(java.util.Locale.ROOT)) + "%");
            where.append(" and lower(qname) like ?").append(params.size()).append(" escape '\\'");
        }
        return find(where.toString(), NEWEST_FIRST, params.toArray()).page(0, limit).list();
    }

    /**
     * Anomalies last seen at or after {@code since}, grouped by company and name: the sum of their counts and the
     * latest last_seen, most recent group first; {@code offset} groups skipped, at most {@code limit} returned.
     * Aggregated by PostgreSQL over the last_seen index; rows never leave the database.
     */
    public Uni<List<AnomalyGroup>> summary(Instant since, int offset, int limit) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select company_id, qname, sum(count) as lookups, count(*) as events, "
                        + "max(last_seen) as last_seen from egress.egress_anomaly_events where last_seen >= ?1 "
                        + "group by company_id, qname order by max(last_seen) desc, company_id, qname "
                        + "offset ?2 limit ?3", Object[].class)
                .setParameter(1, since)
                .setParameter(2, offset)
                .setParameter(3, limit)
                .getResultList())
                .map(rows -> rows.stream().map(AnomalyGroup::of).toList());
    }

    /** Denied lookups (the sum of counts) and anomaly events last seen at or after {@code since}, optionally of one company. */
    public Uni<AnomalyCount> countSince(Instant since, UUID companyId) {
        String sql = "select coalesce(sum(count), 0), count(*) from egress.egress_anomaly_events where last_seen >= ?1"
                + (companyId == null ? "" : " and company_id = ?2");
        return Panache.getSession().flatMap(session -> {
            var query = session.createNativeQuery(sql, Object[].class).setParameter(1, since);
            if (companyId != null) {
                query.setParameter(2, companyId);
            }
            return query.getSingleResult();
        }).map(row -> new AnomalyCount(((Number) row[0]).longValue(), ((Number) row[1]).longValue()));
    }

    private static String likeEscaped(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
