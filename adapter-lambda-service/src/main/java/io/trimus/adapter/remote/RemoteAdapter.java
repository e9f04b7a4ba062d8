package io.trimus.adapter.remote;

import io.trimus.adapter.a2a.A2aDelegation;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.run.secrets.DispatchKeys;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.events.secrets.TaskMacs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * remote, the dispatching side: the run is published on trimus.remote.tasks for the workers of its tag (DESIGN.md §5),
 * one of which claims and executes it with its own adapter. This service reported DISPATCHED; the worker reports
 * RUNNING and the outcome, and {@link RemoteRuns} fails the run if no worker claims it in time or its worker is lost.
 * The task carries run-service's issuer MAC unchanged and this service's MAC over the envelope (its claim deadline
 * included), both of which the worker checks before it starts anything. A run whose adapter_config names an A2A peer
 * instead is delegated to that peer by {@link A2aDelegation}.
 */
@ApplicationScoped
public class RemoteAdapter implements Adapter {

    private final RemoteTasks tasks;
    private final RemoteRuns runs;
    private final RunStarts starts;
    private final RunReporter reporter;
    private final Duration claimTimeout;
    private final Optional<TaskMacs> macs;
    private final A2aDelegation peers;

    @Inject
    public RemoteAdapter(RemoteTasks tasks, RemoteRuns runs, TrimusConfig config, DispatchKeys keys,
                         RunStarts starts, RunReporter reporter, A2aDelegation peers) {
        this.tasks = tasks;
        this.peers = peers;
        this.starts = starts;
        this.reporter = reporter;
        this.runs = runs;
        this.claimTimeout = config.remote().claimTimeout();
        this.macs = keys.macs();
    }

    @Override
    public AdapterType type() {
        return AdapterType.REMOTE;
    }

    /** Checks the run as {@link #admit} does; nothing is published. */
    @Override
    public void validate(RunRequested request) {
        admit(request);
    }

    /** Checks and publishes the run (the dispatcher calls {@link #admit} and reports DISPATCHED between the two). */
    @Override
    public void submit(RunRequested request) {
        admit(request).submit();
    }

    /**
     * The outer contract and the inner adapter's, and what a worker needs to trust the task: run-service's issuer MAC
     * and a key here to stamp the envelope. Whether the worker may run the inner adapter is its own call. The
     * adapter_config is parsed once, for the checks and the task.
     */
    @Override
    public Admitted admit(RunRequested request) {
        RemoteAdapterConfig config = RemoteAdapterConfig.parse(request.adapterConfig());
        SandboxSecrets.refuseMasked(request, "remote");
        if (config.toPeer()) {
            peers.validate(request, config.a2a());
            return () -> peers.submit(request, config.a2a());
        }
        if (macs.isEmpty()) {
            throw new RunRejected("a remote run needs TRIMUS_ENCRYPTION_KEY or TRIMUS_DISPATCH_KEY on the adapter"
                    + " service, to authenticate its task to the worker");
        }
        if (request.issuerMac() == null) {
            throw new RunRejected("the run request carries no issuer MAC, so no worker would accept its task;"
                    + " run-service must be as recent as the adapter service");
        }
        return () -> publish(request, config);
    }

    private void publish(RunRequested request, RemoteAdapterConfig config) {
        Instant now = Instant.now();
        RemoteTask unsigned = new RemoteTask(UUID.randomUUID(), request.runId(), config.workerTag(),
                now.plus(claimTimeout), now, config.inner(request), null);
        RemoteTask task = unsigned.withMac(macs.orElseThrow().stamp(unsigned));
        // a task once published may be claimed: from here on the run counts as started
        RunStarts.Start start = starts.awaitStart(request.runId());
        if (start != RunStarts.Start.GO) {
            if (start == RunStarts.Start.NOT_RECORDED) {
                reporter.report(RunStatusChanged.of(request.runId(), request.companyId(), request.agentId(),
                        RunState.FAILED, null, null, RunStarts.NOT_RECORDED));
            }
            return;
        }
        runs.watch(task, request);   // before publishing: a fast worker's claim must find the run watched
        tasks.publish(task);
    }

    /**
     * An unclaimed run ends CANCELLED here; a claimed one is stopped by its worker, which hears the cancel too; a run
     * delegated to an A2A peer is stopped here and the peer asked to cancel its task.
     */
    @Override
    public boolean cancel(UUID runId) {
        return peers.cancel(runId) || runs.cancel(runId);
    }

    /** Nothing of a remote run lives in this process; the worker reaps its own leftovers. */
    @Override
    public List<OrphanRun> reapOrphans() {
        return List.of();
    }
}
