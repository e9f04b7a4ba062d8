package io.trimus.run.repository.run;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import io.trimus.events.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.reactive.mutiny.Mutiny;

import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Runs, always looked up within their company. */
@ApplicationScoped
public class RunRepository implements PanacheRepositoryBase<Run, UUID> {
    /** The sums {@link UsageSums} holds, in its order; a run reported usage when any of its usage columns is set. */
    private static final String USAGE_SUMS = "count(r), count(case when r.inputTokens is not null"
            + " or r.outputTokens is not null or r.cacheReadTokens is not null or r.cacheWriteTokens is not null"
            + " or r.reasoningTokens is not null or r.costUsd is not null or r.model is not null"
            + " or r.apiDurationMs is not null or r.turns is not null then 1 end), sum(r.inputTokens),"
            + " sum(r.outputTokens), sum(r.cacheReadTokens), sum(r.cacheWriteTokens), sum(r.reasoningTokens),"
            + " sum(r.costUsd)";

    /**
     * The agent's run that {@code caller} started by A2A message {@code messageId}, else null; there is at most one
     * (the unique index {@value #A2A_MESSAGE_KEY}: a messageId names a run per caller).
     */
    public Uni<Run> findByA2aMessage(UUID companyId, UUID agentId, UUID caller, String messageId) {
        return find("companyId = ?1 and agentId = ?2 and a2aCaller = ?3 and a2aMessageId = ?4", companyId, agentId,
                caller, messageId).firstResult();
    }

    /** The unique index that lets one run per A2A messageId of an agent exist. */
    public static final String A2A_MESSAGE_KEY = "run_a2a_message_key";

    /** The run if it exists and belongs to the company, else null. */
    public Uni<Run> findInCompany(UUID companyId, UUID runId) {
        return find("id = ?1 and companyId = ?2", runId, companyId).firstResult();
    }

    /** The company's latest runs, newest first, optionally only those in {@code status}. */
    public Uni<List<Run>> latest(UUID companyId, RunState status, int limit) {
        var query = status == null
                ? find("companyId = ?1 order by queuedAt desc, id desc", companyId)
                : find("companyId = ?1 and status = ?2 order by queuedAt desc, id desc", companyId, status);
        return query.page(0, limit).list();
    }

    /** Runs still DISPATCHED or RUNNING whose last transition is older than {@code before}, oldest first. */
    public Uni<List<Run>> inProgressSince(java.time.Instant before, int limit) {
        return find("status in ?1 and coalesce(startedAt, dispatchedAt) < ?2 order by coalesce(startedAt, dispatchedAt)",
                List.of(RunState.DISPATCHED, RunState.RUNNING), before).page(0, limit).list();
    }

    /** The processes holding runs in progress (DISPATCHED, RUNNING), other than {@code live}; at most {@code limit}. */
    public Uni<List<String>> holdersOutside(Set<String> live, int limit) {
        String query = "select distinct r.heldBy from Run r where r.status in :inProgress and r.heldBy is not null"
                + (live.isEmpty() ? "" : " and r.heldBy not in :live");
        return getSession().flatMap(session -> {
            var select = session.createQuery(query, String.class)
                    .setParameter("inProgress", List.of(RunState.DISPATCHED, RunState.RUNNING));
            if (!live.isEmpty()) {
                select.setParameter("live", live);
            }
            return select.setMaxResults(limit).getResultList();
        });
    }

    /**
     * Runs in progress held by one of {@code holders} since before {@code takenBefore} (or since an unknown time),
     * oldest dispatch first. One replica at a time calls this (the recovery's lock), so no two recover the same run.
     */
    public Uni<List<Run>> inProgressHeldBy(Collection<String> holders, Instant takenBefore, int limit) {
        return find("status in ?1 and heldBy in ?2 and (heldSince is null or heldSince < ?3)"
                        + " order by dispatchedAt, id", List.of(RunState.DISPATCHED, RunState.RUNNING), holders,
                takenBefore).page(0, limit).list();
    }

    /**
     * Runs in progress that {@code holder} has held since before {@code before} but does not list among {@code held}
     * (its latest beat): it let go of them without a word, e.g. another process started them first.
     */
    public Uni<List<Run>> heldButNotListed(String holder, Set<UUID> held, Instant before, int limit) {
        List<RunState> inProgress = List.of(RunState.DISPATCHED, RunState.RUNNING);
        return (held.isEmpty()
                ? find("heldBy = ?1 and status in ?2 and heldSince < ?3", holder, inProgress, before)
                : find("heldBy = ?1 and status in ?2 and heldSince < ?3 and id not in ?4", holder, inProgress, before,
                        held)).page(0, limit).list();
    }

    /** Marks the runs as started where not already marked; returns how many were marked now. */
    public Uni<Integer> recordStarts(Collection<UUID> runIds, Instant at) {
        return update("startRecordedAt = ?1 where id in ?2 and startRecordedAt is null", at, runIds);
    }

    /** How many runs are in each state, across all companies or in one; states without runs are absent. */
    public Uni<Map<RunState, Long>> countByStatus(UUID companyId) {
        String grouped = " group by r.status";
        var query = companyId == null
                ? getSession().map(s -> s.createQuery("select r.status, count(r) from Run r" + grouped, Object[].class))
                : getSession().map(s -> s.createQuery("select r.status, count(r) from Run r where r.companyId = :c"
                        + grouped, Object[].class).setParameter("c", companyId));
        return query.flatMap(q -> q.getResultList()).map(rows -> {
            Map<RunState, Long> counts = new EnumMap<>(RunState.class);
            rows.forEach(row -> counts.put((RunState) row[0], (Long) row[1]));
            return counts;
        });
    }

    /**
     * Usage of the runs that finished in [{@code since}, {@code until}), summed per company and agent in one grouped
     * query: across all companies (row-level security still limits them to the caller's) or in one, optionally of one
     * agent; by company and agent id, at most {@code limit} rows.
     */
    public Uni<List<UsageSums>> usageByAgent(UUID companyId, UUID agentId, Instant since, Instant until, int limit) {
        return getSession().flatMap(session -> usageQuery(session, "select r.companyId, r.agentId, " + USAGE_SUMS,
                        companyId, agentId, since, until, " group by r.companyId, r.agentId order by r.companyId,"
                                + " r.agentId").setMaxResults(limit).getResultList())
                .map(rows -> rows.stream().map(row -> UsageSums.of((UUID) row[0], (UUID) row[1], row, 2)).toList());
    }

    /** The same sums as {@link #usageByAgent} over all its rows at once. */
    public Uni<UsageSums> usageTotals(UUID companyId, UUID agentId, Instant since, Instant until) {
        return getSession().flatMap(session -> usageQuery(session, "select " + USAGE_SUMS, companyId, agentId, since,
                until, "").getSingleResult()).map(row -> UsageSums.of(null, null, row, 0));
    }

    private static Mutiny.SelectionQuery<Object[]> usageQuery(Mutiny.Session session, String select, UUID companyId,
                                                              UUID agentId, Instant since, Instant until, String tail) {
        String where = " from Run r where r.finishedAt >= :since and r.finishedAt < :until"
                + (companyId == null ? "" : " and r.companyId = :company")
                + (agentId == null ? "" : " and r.agentId = :agent");
        var query = session.createQuery(select + where + tail, Object[].class)
                .setParameter("since", since).setParameter("until", until);
        if (companyId != null) {
            query.setParameter("company", companyId);
        }
        if (agentId != null) {
            query.setParameter("agent", agentId);
        }
        return query;
    }
}
