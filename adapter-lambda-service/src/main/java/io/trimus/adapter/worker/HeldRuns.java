package io.trimus.adapter.worker;

import jakarta.inject.Singleton;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** The remote runs this worker claimed and has not ended yet: what its heartbeats list. */
@Singleton
public class HeldRuns {

    private final Set<UUID> runs = new LinkedHashSet<>();

    synchronized void claimed(UUID runId) {
        runs.add(runId);
    }

    /** The run ended (its terminal status was reported) or was never started; unknown runs are ignored. */
    public synchronized void ended(UUID runId) {
        runs.remove(runId);
    }

    /** Whether this worker claimed the run (and has not ended it). */
    public synchronized boolean holds(UUID runId) {
        return runs.contains(runId);
    }

    synchronized List<UUID> snapshot() {
        return List.copyOf(runs);
    }
}
