package io.trimus.run.service.run;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which runs may have changed, told to whoever on this instance waits on them (A2A streams, blocking sends and
 * cancels): the status consumer tells it once a status is stored, and the status watch tells it when any replica's
 * status event arrives. A signal says only "read it again": the run in PostgreSQL stays the one truth, so a signal
 * that comes early, twice or never costs a read or waits for the reader's own safety poll, never a wrong state.
 * Memory is one entry per run someone waits on, gone with its last waiter.
 */
@ApplicationScoped
public class RunChanges {
    private final ConcurrentHashMap<UUID, Set<MultiEmitter<? super UUID>>> waiting = new ConcurrentHashMap<>();

    /** Tells every waiter of {@code runId} on this instance that the run may have changed; nothing when none waits. */
    public void changed(UUID runId) {
        Set<MultiEmitter<? super UUID>> waiters = waiting.get(runId);
        if (waiters != null) {
            waiters.forEach(waiter -> waiter.emit(runId));
        }
    }

    /**
     * A signal each time run {@code runId} may have changed, from the subscription on; endless until cancelled. A
     * subscriber that is still busy with a signal gets only the latest of those that came meanwhile.
     */
    public Multi<UUID> of(UUID runId) {
        return Multi.createFrom().emitter(emitter -> {
            waiting.compute(runId, (id, waiters) -> {
                Set<MultiEmitter<? super UUID>> set = waiters == null ? ConcurrentHashMap.newKeySet() : waiters;
                set.add(emitter);
                return set;
            });
            emitter.onTermination(() -> waiting.computeIfPresent(runId, (id, waiters) -> {
                waiters.remove(emitter);
                return waiters.isEmpty() ? null : waiters;
            }));
        }, BackPressureStrategy.LATEST);
    }

    /** How many runs have a waiter on this instance (tests). */
    int watchedRuns() {
        return waiting.size();
    }
}
