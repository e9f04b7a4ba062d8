package io.trimus.adapter.run;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where an adapter records that a run is about to begin (a container, a process, a call, a task for workers), before
 * anything of it exists: a run whose start was recorded is never dispatched again if this process is lost, and of two
 * processes that got the same request (a redelivery) only the one that recorded its start first may begin it.
 */
public interface RunStarts {

    /** Why a run whose start could not be recorded ends FAILED without starting. */
    String NOT_RECORDED = "the adapter could not record the run's start with the broker (trimus.adapter.leases), so it"
            + " did not start it";

    /** How recording a start ended. */
    enum Start {
        /** Recorded, and this process was first: begin the run. */
        GO,
        /** Not recorded (the broker did not acknowledge it in time): do not begin, report the run FAILED. */
        NOT_RECORDED,
        /** Another process recorded its start first and holds the run: do not begin, report nothing. */
        TAKEN
    }

    /** Starts that are recorded nowhere: for adapters exercised without a broker. */
    RunStarts UNRECORDED = new RunStarts() {
        @Override
        public CompletionStage<Start> recordStart(UUID runId) {
            return CompletableFuture.completedFuture(Start.GO);
        }

        @Override
        public Start awaitStart(UUID runId) {
            return Start.GO;
        }
    };

    /** Records the start; the stage completes with how it ended (never exceptionally). */
    CompletionStage<Start> recordStart(UUID runId);

    /** Records the start and waits for it, on a run's own thread. */
    Start awaitStart(UUID runId);
}
