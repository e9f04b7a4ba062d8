package io.trimus.run.repository.outbox;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;

/**
 * The outbox: append in the business transaction, read the rows due for publishing in order, and record how each
 * attempt ended (published, to be retried later, refused for good).
 */
@ApplicationScoped
public class OutboxRepository implements PanacheRepositoryBase<OutboxEvent, Long> {

    /**
     * The oldest pending events that are due, in publishing order. A row waiting out a retry holds back the later
     * rows of its own key (one run's events stay in order) and no others; a due earlier row comes first in the list,
     * and the relay stops a pass at the first row it has to retry.
     */
    public Uni<List<OutboxEvent>> nextDue(int max, Instant now) {
        return find("""
                from OutboxEvent o
                where o.publishedAt is null and o.refusedAt is null and (o.nextAttemptAt is null or o.nextAttemptAt <= :now)
                  and not exists (select 1 from OutboxEvent e where e.messageKey = o.messageKey and e.seq < o.seq
                                  and e.publishedAt is null and e.refusedAt is null and e.nextAttemptAt > :now)
                order by o.seq""", Parameters.with("now", now)).page(0, max).list();
    }

    /** The latest event of {@code type} staged under {@code key}, or null. */
    public Uni<OutboxEvent> latest(String type, String key) {
        return find("type = ?1 and messageKey = ?2 order by seq desc", type, key).firstResult();
    }

    /** Records that the event with this seq reached the broker. */
    public Uni<Integer> markPublished(Long seq) {
        return update("publishedAt = ?1 where seq = ?2", Instant.now(), seq);
    }

    /** Records a failed attempt that may succeed later: the row is not tried again before {@code nextAttemptAt}. */
    public Uni<Integer> markRetry(Long seq, int attempts, Instant nextAttemptAt) {
        return update("attempts = ?1, nextAttemptAt = ?2 where seq = ?3", attempts, nextAttemptAt, seq);
    }

    /** Records that the broker refused the event for good; it is never tried again. */
    public Uni<Integer> markRefused(Long seq, String refusal) {
        return update("refusedAt = ?1, refusal = ?2 where seq = ?3", Instant.now(), refusal, seq);
    }
}
