package io.trimus.adapter.dispatch;

import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.RunReporter;
import io.trimus.events.RunCancelRequested;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.AdapterConfigException;
import io.trimus.events.adapter.AdapterType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * Decides what happens to each run request: duplicate (ignored), REJECTED (no adapter, an adapter_config
 * that breaks its contract, or a policy refusal), or DISPATCHED to its adapter. Deduplicates on the event id and on the run id,
 * so a redelivered or re-sent request never starts a second execution; the adapter's own guard (the docker
 * adapter's container name) covers what falls out of this bounded memory.
 */
@ApplicationScoped
public class RunDispatcher {

    private static final Logger LOG = Logger.getLogger(RunDispatcher.class);
    /** Ids remembered for deduplication; older ones fall back on the adapter's own guard. */
    static final int REMEMBERED = 10_000;

    private final AdapterRegistry adapters;
    private final RunReporter reporter;
    private final RecentIds<Boolean> seenEvents = new RecentIds<>(REMEMBERED);
    /** Runs this process has decided on, with the adapter that holds them (empty when none does). */
    private final RecentIds<Optional<Adapter>> decidedRuns = new RecentIds<>(REMEMBERED);
    /** Runs cancelled before their request arrived (the two topics are not ordered with each other). */
    private final RecentIds<Boolean> cancelledEarly = new RecentIds<>(REMEMBERED);

    @Inject
    public RunDispatcher(AdapterRegistry adapters, RunReporter reporter) {
        this.adapters = adapters;
        this.reporter = reporter;
    }

    /** Handles one run request; returns at once (adapters execute on their own threads). */
    public void dispatch(RunRequested request) {
        decide(request, true);
    }

    /**
     * Executes a remote run this worker has claimed: the same checks as {@link #dispatch} (the worker's own adapters
     * and gates decide), but DISPATCHED is not reported again, the dispatching service did that.
     */
    public boolean runClaimed(RunRequested request) {
        return decide(request, false);
    }

    /** @return whether an adapter now holds the run */
    private synchronized boolean decide(RunRequested request, boolean reportDispatched) {
        if (request.runId() == null) {
            LOG.warnf("ignored run request %s without a run_id", request.id());
            return false;
        }
        if (request.id() != null && !seenEvents.add(request.id(), Boolean.TRUE)) {
            LOG.infof("run request event %s was already handled (redelivery)", request.id());
            return false;
        }
        if (decidedRuns.contains(request.runId())) {
            LOG.infof("run %s was already dispatched; ignoring request event %s", request.runId(), request.id());
            return false;
        }
        if (cancelledEarly.remove(request.runId()) != null) {
            decidedRuns.add(request.runId(), Optional.empty());
            report(request, RunState.CANCELLED, "cancelled before it started");
            return false;
        }
        if (!reportDispatched && AdapterType.fromWire(request.adapterType()).orElse(null) == AdapterType.REMOTE) {
            decidedRuns.add(request.runId(), Optional.empty());
            report(request, RunState.REJECTED, "a worker runs a remote run itself and never hands it on to another");
            return false;
        }
        Optional<Adapter> adapter = adapters.find(request.adapterType());
        if (adapter.isEmpty()) {
            decidedRuns.add(request.runId(), Optional.empty());
            report(request, RunState.REJECTED, request.adapterType() == null
                    ? "the run request names no adapter type"
                    : "adapter type " + request.adapterType() + " is not available in this version");
            return false;
        }
        Adapter.Admitted admitted;
        try {
            admitted = adapter.get().admit(request);
        } catch (AdapterConfigException e) {
            decidedRuns.add(request.runId(), Optional.empty());
            report(request, RunState.REJECTED, e.field() + " " + e.getMessage());
            return false;
        } catch (RunRejected e) {
            decidedRuns.add(request.runId(), Optional.empty());
            report(request, RunState.REJECTED, e.getMessage());
            return false;
        }
        decidedRuns.add(request.runId(), adapter);
        if (reportDispatched) {
            report(request, RunState.DISPATCHED, null);
        }
        admitted.submit();
        return true;
    }

    /** Handles one cancel request: the adapter stops the run, or it never starts if its request comes later. */
    public void cancel(RunCancelRequested cancel) {
        if (cancel.runId() == null) {
            LOG.warnf("ignored cancel request %s without a run_id", cancel.id());
            return;
        }
        Adapter holder;
        synchronized (this) {
            if (cancel.id() != null && !seenEvents.add(cancel.id(), Boolean.TRUE)) {
                return;
            }
            Optional<Adapter> decided = decidedRuns.get(cancel.runId());
            if (decided == null) {
                cancelledEarly.add(cancel.runId(), Boolean.TRUE);
                LOG.infof("run %s cancelled before its request arrived; it will not start", cancel.runId());
                return;
            }
            if (decided.isEmpty()) {
                return;
            }
            holder = decided.get();
        }
        // outside the lock: stopping a container blocks on the engine
        if (!holder.cancel(cancel.runId())) {
            LOG.infof("run %s is no longer executing; nothing to cancel", cancel.runId());
        }
    }

    /**
     * Ends the runs a previous process of this service left behind: each adapter removes their leftovers,
     * and each such run is reported FAILED and never started again if its request is redelivered.
     */
    public void reconcile() {
        for (Adapter adapter : adapters.all()) {
            for (OrphanRun orphan : adapter.reapOrphans()) {
                synchronized (this) {
                    decidedRuns.add(orphan.runId(), Optional.empty());
                }
                reporter.report(RunStatusChanged.of(orphan.runId(), orphan.companyId(), orphan.agentId(),
                        RunState.FAILED, null, null, "adapter restarted while the run was in progress"));
            }
        }
    }

    private void report(RunRequested request, RunState state, String error) {
        reporter.report(RunStatusChanged.of(request.runId(), request.companyId(), request.agentId(), state, null,
                null, error));
    }
}
