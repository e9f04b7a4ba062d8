package io.trimus.adapter.worker;

import io.trimus.adapter.lease.ClaimedRuns;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The remote runs this worker claimed and has not ended yet: what its heartbeats list, and what its capacity
 * (TRIMUS_WORKER_MAX_CONCURRENT_RUNS) is counted against.
 */
@Singleton
public class HeldRuns implements ClaimedRuns {

    private final Set<UUID> runs = new LinkedHashSet<>();
    /** Places taken by claims under way (their commit not yet through): counted, never listed in a beat. */
    private int reserved;

    /**
     * Takes a place for a claim under way if fewer than {@code limit} runs are held or reserved; a reservation ends
     * in {@link #claimed} or {@link #unreserve}.
     */
    synchronized boolean reserve(int limit) {
        if (runs.size() + reserved >= limit) {
            return false;
        }
        reserved++;
        return true;
    }

    /** The claim did not go through: its place is free again. */
    synchronized void unreserve() {
        reserved--;
        notifyAll();
    }

    /** The reserved place now holds the claimed run. */
    synchronized void claimed(UUID runId) {
        reserved--;
        runs.add(runId);
    }

    /** The run ended (its terminal status was reported) or was never started; unknown runs are ignored. */
    public synchronized void ended(UUID runId) {
        if (runs.remove(runId)) {
            notifyAll();
        }
    }

    /** Whether this worker claimed the run (and has not ended it). */
    @Override
    public synchronized boolean holds(UUID runId) {
        return runs.contains(runId);
    }

    synchronized List<UUID> snapshot() {
        return List.copyOf(runs);
    }

    /**
     * Waits until fewer than {@code limit} runs are held or reserved, or {@code atMost} passed.
     *
     * @return whether there is room now
     */
    synchronized boolean awaitRoom(int limit, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (runs.size() + reserved >= limit) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
