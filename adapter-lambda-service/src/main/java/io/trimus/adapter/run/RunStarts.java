package io.trimus.adapter.run;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where an adapter records that a run is about to begin (a container, a process, a call, a task for workers), before
 * anything of it exists: a run whose start was recorded is never dispatched again if this process is lost.
 */
public interface RunStarts {

    /** Why a run whose start could not be recorded ends FAILED without starting. */
    String NOT_RECORDED = "the adapter could not record the run's start with the broker (trimus.adapter.leases), so it"
            + " did not start it";

    /** Starts that are recorded nowhere: for adapters exercised without a broker. */
    RunStarts UNRECORDED = new RunStarts() {
        @Override
        public CompletionStage<Void> recordStart(UUID runId) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public boolean awaitStart(UUID runId) {
            return true;
        }
    };

    /** Records the start; the stage completes once it is recorded, exceptionally when it cannot be. */
    CompletionStage<Void> recordStart(UUID runId);

    /** Records the start and waits for it, on a run's own thread; false when it could not be recorded in time. */
    boolean awaitStart(UUID runId);
}
