package io.trimus.egress.canary;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Stored canaries ({@code egress_canary}); every method runs inside the caller's transaction. */
@ApplicationScoped
public class CanaryRepository implements PanacheRepositoryBase<Canary, UUID> {
    private static final String COLUMNS = "id, company_id, trigger, status, requested_at, finished_at, checks, error, "
            + "instance";

    /**
     * Stores a new running canary for the company, unless one is running already (whichever replica started it):
     * the partial unique index decides, so two requests at the same instant make one canary.
     *
     * @return the new canary, or null when one was running
     */
    public Uni<Canary> claim(UUID id, UUID companyId, String trigger) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.egress_canary (id, company_id, trigger, status, requested_at) "
                        + "values (?1, ?2, ?3, 'running', now()) on conflict (company_id) where status = 'running' "
                        + "do nothing returning " + COLUMNS, Canary.class)
                .setParameter(1, id)
                .setParameter(2, companyId)
                .setParameter(3, trigger)
                .getResultList())
                .map(rows -> rows.isEmpty() ? null : rows.get(0));
    }

    /** The company's running canary, or null. */
    public Uni<Canary> running(UUID companyId) {
        return find("companyId = ?1 and status = ?2", companyId, Canary.RUNNING).firstResult();
    }

    /** The company's newest canaries, newest first. */
    public Uni<List<Canary>> newest(UUID companyId, int limit) {
        return find("companyId = ?1 order by requestedAt desc, id", companyId).page(0, limit).list();
    }

    /**
     * Ends a running canary with its result; a canary that already ended (a second result, or one that timed out)
     * is left as it is.
     *
     * @return whether this call ended it
     */
    public Uni<Boolean> finish(UUID id, UUID companyId, String status, String checks, String error, String instance,
                               Instant finishedAt) {
        return update("status = ?1, checks = ?2, error = ?3, instance = ?4, finishedAt = ?5 "
                        + "where id = ?6 and companyId = ?7 and status = 'running'",
                status, checks, error, instance, finishedAt, id, companyId)
                .map(n -> n == 1);
    }

    /** Ends every canary running since before {@code cutoff} as failed with {@code error}; how many. */
    public Uni<Integer> expire(Instant cutoff, String error) {
        return update("status = 'failed', error = ?1, finishedAt = ?2 where status = 'running' and requestedAt < ?3",
                error, Instant.now(), cutoff);
    }

    /**
     * The companies due a scheduled canary: every company egress-service knows (an allowlist, an agent's own list, a
     * canary before) that enforces its policy (report mode lets the unlisted checks through by design) and has had
     * no canary for {@code interval}.
     */
    public Uni<List<UUID>> due(Duration interval, int limit) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select k.company_id from (select company_id from egress.allowlist "
                        + "union select company_id from egress.agent_allowlist "
                        + "union select company_id from egress.egress_canary) k "
                        + "where not exists (select 1 from egress.egress_policy p where p.company_id = k.company_id "
                        + "and p.mode = 'report') "
                        + "and not exists (select 1 from egress.egress_canary c where c.company_id = k.company_id "
                        + "and (c.status = 'running' or c.requested_at > ?1)) "
                        + "order by k.company_id limit ?2", UUID.class)
                .setParameter(1, Instant.now().minus(interval))
                .setParameter(2, limit)
                .getResultList());
    }

    /** Deletes the finished canaries requested before {@code cutoff}; how many. */
    public Uni<Long> purge(Instant cutoff) {
        return delete("status <> 'running' and requestedAt < ?1", cutoff);
    }
}
