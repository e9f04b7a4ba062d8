package io.trimus.run.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;

/** The outbox: append in the business transaction, read unpublished rows in order, mark them published. */
@ApplicationScoped
public class OutboxRepository implements PanacheRepositoryBase<OutboxEvent, Long> {

    /** The oldest unpublished events, in publishing order. */
    public Uni<List<OutboxEvent>> nextUnpublished(int max) {
        return find("publishedAt is null order by seq").page(0, max).list();
    }

    /** Records that the event with this seq reached the broker. */
    public Uni<Integer> markPublished(Long seq) {
        return update("publishedAt = ?1 where seq = ?2", Instant.now(), seq);
    }
}
