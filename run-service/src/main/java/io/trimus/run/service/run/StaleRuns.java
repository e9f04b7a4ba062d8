package io.trimus.run.service.run;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.RunState;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.ClusterLocks;
import io.trimus.run.repository.run.Run;
import io.trimus.run.repository.run.RunRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.List;

/**
 * Ends runs that stay DISPATCHED or RUNNING past TRIMUS_RUN_STALE_AFTER: their adapter (a host process, an HTTP call, a
 * worker whose dispatcher restarted) is gone and nobody will ever report them. A late status from an adapter that
 * was only slow is then ignored like any late event: runs move forward only.
 */
@ApplicationScoped
public class StaleRuns {
    private static final Logger LOG = Logger.getLogger(StaleRuns.class);
    private static final int BATCH = 100;

    private final RunRepository runs;
    private final RunLifecycle lifecycle;
    private final TrimusConfig config;
    private final ClusterLocks locks;

    StaleRuns(RunRepository runs, RunLifecycle lifecycle, TrimusConfig config, ClusterLocks locks) {
        this.locks = locks;
        this.runs = runs;
        this.lifecycle = lifecycle;
        this.config = config;
    }

    /** A backstop shorter than the longest allowed run would end healthy runs FAILED: say so at boot. */
    void onStart(@Observes StartupEvent event) {
        long maxTimeoutSec = config.docker().maxTimeoutSec();
        if (config.run().staleAfter().toSeconds() <= maxTimeoutSec) {
            LOG.warnf("TRIMUS_RUN_STALE_AFTER (%s) is not longer than TRIMUS_DOCKER_MAX_TIMEOUT_SEC (%d s): a run"
                    + " allowed to take that long would be ended FAILED as stale", human(config.run().staleAfter()),
                    maxTimeoutSec);
        }
    }

    @Scheduled(every = "${trimus.run.stale-check-interval:1m}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> onTick() {
        return sweep().onFailure().invoke(e -> LOG.warnf("could not check for stale runs: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Ends a batch of stale runs; returns how many (0 while another replica sweeps). */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Integer> sweep() {
        Instant now = Instant.now();
        return locks.tryHold(ClusterLocks.Job.STALE_RUNS).flatMap(held -> !held ? Uni.createFrom().item(0)
                : runs.inProgressSince(now.minus(config.run().staleAfter()), BATCH).map(stale -> end(stale, now)));
    }

    private int end(List<Run> stale, Instant now) {
        String reason = "no outcome was reported for " + human(config.run().staleAfter()) + "; the adapter that held"
                + " the run stopped without reporting it";
        for (Run run : stale) {
            LOG.warnf("run %s was %s without news since %s: ending it FAILED", run.id, run.status,
                    run.startedAt != null ? run.startedAt : run.dispatchedAt);
            lifecycle.finish(run, RunState.FAILED, null, null, reason, now);
        }
        return stale.size();
    }

    private static String human(java.time.Duration d) {
        if (d.toMinutes() >= 60 && d.toMinutesPart() == 0) {
            return d.toHours() + " h";
        }
        return d.toSeconds() >= 60 && d.toSecondsPart() == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }
}
