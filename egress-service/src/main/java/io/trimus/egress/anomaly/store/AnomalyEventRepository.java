package io.trimus.egress.anomaly.store;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Persisted anomaly events, read per company, newest first. */
@ApplicationScoped
public class AnomalyEventRepository implements PanacheRepositoryBase<AnomalyEvent, UUID> {
    private static final Sort NEWEST_FIRST = Sort.descending("lastSeen", "id");

    /** Rows per insert statement: 18 parameters each, well below PostgreSQL's 65,535 per statement. */
    static final int ROWS_PER_STATEMENT = 1000;
    private static final String INSERT = "insert into egress.egress_anomaly_events (id, company_id, agent_id, run_id, "
            + "container_id, source_ip, qname, qtype, reason, count, first_seen, last_seen, received_at, enforced, "
            + "method, path, score, signals) "
            + "values ";
    private static final int COLUMNS = 18;

    /**
     * Inserts the rows inside the current transaction, one multi-row statement per {@value #ROWS_PER_STATEMENT},
     * skipping every id that is stored already; the ids of the rows inserted now.
     */
    public Uni<Set<UUID>> insertAbsent(List<AnomalyEvent> rows) {
        Set<UUID> inserted = new HashSet<>();
        List<List<AnomalyEvent>> statements = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            statements.add(rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT)));
        }
        return Multi.createFrom().iterable(statements)
                .onItem().transformToUniAndConcatenate(this::insertStatement)
                .onItem().invoke(inserted::addAll)
                .collect().last()
                .map(ignored -> inserted);
    }

    private Uni<List<UUID>> insertStatement(List<AnomalyEvent> rows) {
        StringBuilder sql = new StringBuilder(INSERT);
        for (int r = 0; r < rows.size(); r++) {
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 1; c <= COLUMNS; c++) {
                sql.append(c == 1 ? "?" : ", ?").append(r * COLUMNS + c);
            }
            sql.append(')');
        }
        sql.append(" on conflict (id) do nothing returning id");
        return Panache.getSession().flatMap(session -> {
            var query = session.createNativeQuery(sql.toString(), UUID.class);
            int p = 0;
            for (AnomalyEvent row : rows) {
                query.setParameter(++p, row.id)
                        .setParameter(++p, row.companyId)
                        .setParameter(++p, row.agentId)
                        .setParameter(++p, row.runId)
                        .setParameter(++p, row.containerId)
                        .setParameter(++p, row.sourceIp)
                        .setParameter(++p, row.qname)
                        .setParameter(++p, row.qtype)
                        .setParameter(++p, row.reason)
                        .setParameter(++p, row.count)
                        .setParameter(++p, row.firstSeen)
                        .setParameter(++p, row.lastSeen)
                        .setParameter(++p, row.receivedAt)
                        .setParameter(++p, row.enforced)
                        .setParameter(++p, row.method)
                        .setParameter(++p, row.path)
                        .setParameter(++p, row.score)
                        .setParameter(++p, row.signals);
            }
            return query.getResultList();
        });
    }

    /**
     * The company's latest anomalies by last_seen, only those last seen before {@code before} when given, with
     * {@code reason} when given, whose name contains {@code qnamePart} (case-insensitive) when given, and with a
     * score of at least {@code minScore} when given.
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
        if (filter.minScore() != null) {
            params.add(filter.minScore());
            where.append(" and score >= ?").append(params.size());
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
