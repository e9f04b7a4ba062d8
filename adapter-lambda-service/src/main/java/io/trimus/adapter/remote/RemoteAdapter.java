package io.trimus.adapter.remote;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.RemoteAdapterConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * remote, the dispatching side: the run is published on trimus.remote.tasks for the workers of its tag (DESIGN.md §5),
 * one of which claims and executes it with its own adapter. This service reported DISPATCHED; the worker reports
 * RUNNING and the outcome, and {@link RemoteRuns} fails the run if no worker claims it in time or its worker is lost.
 */
@ApplicationScoped
public class RemoteAdapter implements Adapter {

    private final RemoteTasks tasks;
    private final RemoteRuns runs;
    private final Duration claimTimeout;

    @Inject
    public RemoteAdapter(RemoteTasks tasks, RemoteRuns runs, TrimusConfig config) {
        this.tasks = tasks;
        this.runs = runs;
        this.claimTimeout = config.remote().claimTimeout();
    }

    @Override
    public AdapterType type() {
        return AdapterType.REMOTE;
    }

    /** The outer contract and the inner adapter's; whether the worker may run the inner adapter is its own call. */
    @Override
    public void validate(RunRequested request) {
        RemoteAdapterConfig.parse(request.adapterConfig());
    }

    @Override
    public void submit(RunRequested request) {
        RemoteAdapterConfig config = RemoteAdapterConfig.parse(request.adapterConfig());
        RunRequested inner = new RunRequested(request.id(), request.runId(), request.companyId(), request.agentId(),
                config.adapterType().wireName(), config.adapterConfig(), request.issue(), request.input(),
                request.requestedAt(), request.secrets());
        Instant now = Instant.now();
        RemoteTask task = new RemoteTask(UUID.randomUUID(), request.runId(), config.workerTag(),
                now.plus(claimTimeout), now, inner);
        runs.watch(task, request);   // before publishing: a fast worker's claim must find the run watched
        tasks.publish(task);
    }

    /** An unclaimed run ends CANCELLED here; a claimed one is stopped by its worker, which hears the cancel too. */
    @Override
    public boolean cancel(UUID runId) {
        return runs.cancel(runId);
    }

    /** Nothing of a remote run lives in this process; the worker reaps its own leftovers. */
    @Override
    public List<OrphanRun> reapOrphans() {
        return List.of();
    }
}
