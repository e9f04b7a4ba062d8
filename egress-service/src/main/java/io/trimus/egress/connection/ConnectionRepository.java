package io.trimus.egress.connection;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Persisted connection records: written in batches, read per (company, run), counted per hour, aged out. */
@ApplicationScoped
public class ConnectionRepository implements PanacheRepositoryBase<EgressConnection, Long> {
    private static final Sort NEWEST_FIRST = Sort.descending("startedAt", "id");
    private static final String COLUMNS = "company_id, run_id, agent_id, sandbox_ip, way, host, port, address, "
            + "decision, reason, enforced, bytes_out, bytes_in, started_at, duration_ms, masked_swaps";
    private static final int COLUMN_COUNT = 16;

    /** Inserts the rows in one statement inside the current transaction. */
    public Uni<Integer> insertAll(List<EgressConnection> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        StringBuilder sql = new StringBuilder("insert into egress.egress_connection (" + COLUMNS + ") values ");
        for (int r = 0; r < rows.size(); r++) {
            sql.append(r == 0 ? "(" : ", (");
            for (int c = 1; c < COLUMN_COUNT; c++) {
                sql.append(c == 1 ? "?" : ", ?").append(r * COLUMN_COUNT + c);
            }
            // as text first: the reactive driver would bind a String to jsonb as a JSON string, not parse it
            sql.append(", cast(cast(?").append((r + 1) * COLUMN_COUNT).append(" as text) as jsonb)");
            sql.append(')');
        }
        return Panache.getSession().flatMap(session -> {
            var query = session.createNativeQuery(sql.toString());
            int p = 0;
            for (EgressConnection row : rows) {
                query.setParameter(++p, row.companyId);
                query.setParameter(++p, row.runId);
                query.setParameter(++p, row.agentId);
                query.setParameter(++p, row.sandboxIp);
                query.setParameter(++p, row.way);
                query.setParameter(++p, row.host);
                query.setParameter(++p, row.port);
                query.setParameter(++p, row.address);
                query.setParameter(++p, row.decision);
                query.setParameter(++p, row.reason);
                query.setParameter(++p, row.enforced);
                query.setParameter(++p, row.bytesOut);
                query.setParameter(++p, row.bytesIn);
                query.setParameter(++p, row.startedAt);
                query.setParameter(++p, row.durationMs);
                query.setParameter(++p, row.maskedSwaps);
            }
            return query.executeUpdate();
        });
    }

    /** The run's latest connections of the company, newest start first. */
    public Uni<List<EgressConnection>> latest(UUID companyId, UUID runId, int limit) {
        return find("companyId = ?1 and runId = ?2", NEWEST_FIRST, companyId, runId).page(0, limit).list();
    }

    /** Connections, allowed, refused, bytes out and in of the run of the company. */
    public Uni<ConnectionTotals> totals(UUID companyId, UUID runId) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select count(*), count(*) filter (where decision = 'allowed'), "
                        + "count(*) filter (where decision = 'refused'), coalesce(sum(bytes_out), 0), "
                        + "coalesce(sum(bytes_in), 0) from egress.egress_connection "
                        + "where company_id = ?1 and run_id = ?2", Object[].class)
                .setParameter(1, companyId)
                .setParameter(2, runId)
                .getSingleResult())
                .map(ConnectionTotals::of);
    }

    /** The run's connections per (host, port), most connections first, at most {@code limit} of them. */
    public Uni<List<HostTotals>> perHost(UUID companyId, UUID runId, int limit) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select host, port, count(*), coalesce(sum(bytes_out), 0), "
                        + "coalesce(sum(bytes_in), 0), count(*) filter (where decision = 'refused') "
                        + "from egress.egress_connection where company_id = ?1 and run_id = ?2 "
                        + "group by host, port order by count(*) desc, host, port limit ?3", Object[].class)
                .setParameter(1, companyId)
                .setParameter(2, runId)
                .setParameter(3, limit)
                .getResultList())
                .map(rows -> rows.stream().map(HostTotals::of).toList());
    }

    /** The run's requests with a masked secret swapped in, per secret and host, most first. */
    public Uni<List<MaskedUse>> maskedUse(UUID companyId, UUID runId, int limit) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select s.key, c.host, sum(s.value::bigint) "
                        + "from egress.egress_connection c, jsonb_each_text(c.masked_swaps) s "
                        + "where c.company_id = ?1 and c.run_id = ?2 and c.masked_swaps is not null "
                        + "group by s.key, c.host order by sum(s.value::bigint) desc, s.key, c.host limit ?3",
                        Object[].class)
                .setParameter(1, companyId)
                .setParameter(2, runId)
                .setParameter(3, limit)
                .getResultList())
                .map(rows -> rows.stream().map(MaskedUse::of).toList());
    }

    /** Deletes the connections that started before {@code cutoff}; the number deleted. */
    public Uni<Integer> deleteStartedBefore(Instant cutoff) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("delete from egress.egress_connection where started_at < ?1")
                .setParameter(1, cutoff)
                .executeUpdate());
    }
}
