package io.trimus.adapter.worker;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.WorkerHeartbeat;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * A worker's heartbeat: every TRIMUS_WORKER_HEARTBEAT_INTERVAL, and at once after a claim, so the dispatcher learns
 * the run was claimed without waiting for the next tick. Beats are built and sent under one lock, so they leave in the
 * order their snapshots of {@link HeldRuns} were taken.
 */
@Singleton
public class Heartbeats {

    private static final Logger LOG = Logger.getLogger(Heartbeats.class);
    private static final String JOB = "trimus-worker-heartbeat";

    private final WorkerIdentity worker;
    private final HeldRuns held;
    private final HeartbeatSender publisher;
    private final Duration interval;
    private final Scheduler scheduler;

    @Inject
    public Heartbeats(WorkerIdentity worker, HeldRuns held, HeartbeatSender publisher, TrimusConfig config,
                      Scheduler scheduler) {
        this.worker = worker;
        this.held = held;
        this.publisher = publisher;
        this.interval = config.worker().heartbeatInterval();
        this.scheduler = scheduler;
    }

    void start(@Observes StartupEvent event) {
        if (!worker.isWorker()) {
            return;
        }
        LOG.infof("worker %s serves tags %s; heartbeat every %s", worker.id(), worker.tags(), interval);
        // programmatic: only a worker beats, at an interval from configuration
        scheduler.newJob(JOB)
                .setInterval(interval.toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> beatQuietly())
                .schedule();
    }

    void stop(@Observes ShutdownEvent event) {
        if (worker.isWorker()) {
            scheduler.unscheduleJob(JOB);
        }
    }

    /** Sends a beat now. */
    public synchronized void beat() {
        publisher.publish(WorkerHeartbeat.now(worker.id(), worker.tags(), interval, held.snapshot()));
    }

    private void beatQuietly() {
        try {
            beat();
        } catch (RuntimeException e) {
            LOG.warn("could not send a heartbeat; trying again at the next tick", e);
        }
    }
}
