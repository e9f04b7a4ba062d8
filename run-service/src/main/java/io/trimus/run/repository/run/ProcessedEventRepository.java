package io.trimus.run.repository.run;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/** Remembers consumed event ids so that a redelivered event changes nothing. */
@ApplicationScoped
public class ProcessedEventRepository {

    /** Records the id inside the current transaction; false when it had been seen before. */
    public Uni<Boolean> markFirstSeen(UUID eventId) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into run.processed_event (id, processed_at) values (?1, now()) "
                        + "on conflict (id) do nothing")
                .setParameter(1, eventId)
                .executeUpdate()
                .map(rows -> rows == 1));
    }
}
