package io.trimus.adapter.run;

import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterConfigException;
import io.trimus.events.adapter.AdapterType;

import java.util.List;
import java.util.UUID;

/**
 * One way of executing a run (a container, a host process, an HTTP call…). The dispatcher owns
 * deduplication and the DISPATCHED/REJECTED decisions; an adapter owns everything from RUNNING on and
 * reports it through {@link RunReporter}.
 */
public interface Adapter {

    /** The adapter_type this adapter serves. */
    AdapterType type();

    /**
     * Checks the run's adapter_config against this adapter's contract; nothing is started.
     *
     * @throws AdapterConfigException naming the field that breaks the contract
     */
    void validate(RunRequested request);

    /** Queues a validated run and returns at once; the adapter reports RUNNING and the outcome itself. */
    void submit(RunRequested request);

    /**
     * What the dispatcher calls: {@link #validate} now, {@link #submit} once DISPATCHED is reported. An adapter that
     * prepares something while it validates (the parsed adapter_config, the opened secrets) overrides it, so the run
     * is parsed and its secrets opened once.
     *
     * @throws AdapterConfigException naming the field that breaks the contract
     * @throws RunRejected            when a policy refuses the run
     */
    default Admitted admit(RunRequested request) {
        validate(request);
        return () -> submit(request);
    }

    /**
     * Stops a run this adapter holds (queued or running); it then ends CANCELLED.
     *
     * @return false when the adapter does not hold the run (never seen, or already finished)
     */
    boolean cancel(UUID runId);

    /**
     * Ends what a previous process of this service left behind (e.g. containers still labelled with a run).
     * Called once at boot; runs this process holds are never touched.
     *
     * @return the runs that were ended, so their status can be reported
     */
    List<OrphanRun> reapOrphans();

    /** A run its adapter accepted, ready to be queued. */
    @FunctionalInterface
    interface Admitted {
        /** Queues the run and returns at once, as {@link Adapter#submit} does. */
        void submit();
    }
}
