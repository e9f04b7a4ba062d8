package io.trimus.adapter.lease;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.RunStarts;
import io.trimus.events.AdapterLease;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * This process's lease on the runs it holds, renewed every TRIMUS_ADAPTER_LEASE_INTERVAL on trimus.adapter.leases.
 * run-service recovers the runs of a process that stops beating: one whose start was never recorded is dispatched
 * again, one that may have started ends FAILED. So a run is started only after the broker acknowledged a beat that
 * lists it as started ({@link #awaitStart}); a run whose start cannot be recorded is not started at all. The runs held
 * follow what this process reported ({@link #hold} on DISPATCHED or RUNNING, {@link #release} on the outcome).
 */
@Singleton
public class RunLeases implements RunStarts {

    private static final Logger LOG = Logger.getLogger(RunLeases.class);
    private static final String JOB = "trimus-adapter-lease";

    private final InstanceName instance;
    private final LeaseSender sender;
    private final Duration interval;
    private final Duration startTimeout;
    private final Scheduler scheduler;
    private final StartOrder order;
    private final ClaimedRuns claimed;
    private final Set<UUID> held = new LinkedHashSet<>();
    private final Set<UUID> started = new LinkedHashSet<>();

    @Inject
    public RunLeases(InstanceName instance, LeaseSender sender, StartOrder order, ClaimedRuns claimed,
                     TrimusConfig config, Scheduler scheduler) {
        Duration interval = config.lease().interval();
        Duration startTimeout = config.lease().startTimeout();
        this.order = order;
        this.claimed = claimed;
        this.instance = instance;
        this.sender = sender;
        this.interval = interval;
        this.startTimeout = startTimeout;
        this.scheduler = scheduler;
    }

    void begin(@Observes StartupEvent event) {
        LOG.infof("instance %s renews its lease on its runs every %s", instance, interval);
        // programmatic: the interval comes from configuration
        scheduler.newJob(JOB)
                .setInterval(interval.toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> beatQuietly())
                .schedule();
    }

    void end(@Observes ShutdownEvent event) {
        scheduler.unscheduleJob(JOB);
    }

    /** The run was dispatched to this process: it is held, not started. */
    public synchronized void hold(UUID runId) {
        held.add(runId);
    }

    /**
     * Waits for {@link #recordStart}. Blocks: call it from a run's own thread, never from an event loop.
     */
    @Override
    public Start awaitStart(UUID runId) {
        try {
            return recordStart(runId).toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Start.NOT_RECORDED;
        } catch (ExecutionException e) {
            return Start.NOT_RECORDED;
        }
    }

    /**
     * Publishes a beat listing the run as started, waits for the broker's acknowledgement and then, for a run that
     * came as a run request, reads the lease log back to that beat: {@link Start#GO} only when no other process
     * listed the run as started before. A remote run this worker claimed is exclusive already (the claim protocol),
     * and its dispatcher listed it as started when it handed it on. All within TRIMUS_ADAPTER_LEASE_START_TIMEOUT.
     */
    @Override
    public CompletionStage<Start> recordStart(UUID runId) {
        boolean claimedRemotely = claimed.holds(runId);
        CompletionStage<Void> acknowledged;
        CompletionStage<Void> readBack;
        try {
            synchronized (this) {
                held.add(runId);
                started.add(runId);
                AdapterLease beat = snapshot();
                // waited for before it is sent: the log may read it back before the broker's acknowledgement arrives
                readBack = claimedRemotely ? CompletableFuture.completedFuture(null) : order.readBack(beat.id());
                acknowledged = sender.publish(beat);
            }
        } catch (RuntimeException e) {
            LOG.warnf("could not record the start of run %s: %s", runId, e.toString());
            return CompletableFuture.completedFuture(Start.NOT_RECORDED);
        }
        return acknowledged.thenCompose(ok -> readBack)
                .toCompletableFuture()
                .orTimeout(startTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .handle((ok, failure) -> {
                    if (failure != null) {
                        LOG.warnf("could not record the start of run %s: %s", runId, failure);
                        return Start.NOT_RECORDED;
                    }
                    String first = claimedRemotely ? null : order.firstStarterOf(runId);
                    if (first != null && !first.equals(instance.get())) {
                        LOG.infof("run %s is not started here: process %s started it first (the request came to both)",
                                runId, first);
                        release(runId);
                        return Start.TAKEN;
                    }
                    return Start.GO;
                });
    }

    /** The run ended here, or will never run here: later beats no longer list it. */
    public synchronized void release(UUID runId) {
        held.remove(runId);
        started.remove(runId);
    }

    /** Whether this process holds the run. */
    public synchronized boolean holds(UUID runId) {
        return held.contains(runId);
    }

    /** Sends a beat now. Beats are handed to the sender under the lock, so they leave in snapshot order. */
    public synchronized void beat() {
        sender.publish(snapshot());
    }

    public String instance() {
        return instance.get();
    }

    private AdapterLease snapshot() {
        return AdapterLease.of(instance.get(), interval, held, started);
    }

    private void beatQuietly() {
        try {
            beat();
        } catch (RuntimeException e) {
            LOG.warn("could not send a lease beat; trying again at the next tick", e);
        }
    }
}
