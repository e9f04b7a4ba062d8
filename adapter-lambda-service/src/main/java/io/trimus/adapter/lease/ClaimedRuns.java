package io.trimus.adapter.lease;

import java.util.UUID;

/** The remote runs this process claimed as a worker: exclusive by the claim protocol, their start needs no settling. */
@FunctionalInterface
public interface ClaimedRuns {

    /** Whether this process claimed the run as a worker (and has not ended it). */
    boolean holds(UUID runId);
}
