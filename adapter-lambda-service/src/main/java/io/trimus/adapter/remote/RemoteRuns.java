package io.trimus.adapter.remote;

import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.RunReporter;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.WorkerHeartbeat;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The remote runs this dispatcher published, until a worker ends them: the owner of "never stuck". A run no worker
 * has claimed by its task's {@code claim_by} fails ("no worker with tag X claimed the run within 60 s"); a claimed run
 * whose worker missed {@link WorkerHeartbeat#MISSED_BEATS} beats fails ("worker lost"). A worker's beat lists the runs
 * it holds, so the beat is the claim record: the first beat listing a run marks it claimed by that worker, and a
 * later beat of that worker without it means the worker ended it (and reported the outcome itself).
 *
 * <p>A worker's silence means something only while heartbeats could arrive: while this dispatcher does not reach the
 * broker (probed at each check while a claimed run is watched), no worker is judged lost, and once the broker is back
 * a worker is judged lost only after a whole miss window and a rejoin grace more without a beat (the time the
 * heartbeat consumer needs to rejoin and the workers' producers to deliver; TRIMUS_REMOTE_REJOIN_GRACE, default 10 s).
 * So a broker restart does not fail runs whose workers carry on, and a worker that died meanwhile is still found out.
 *
 * <p>Held in memory: runs published by a previous process of this service are not watched after a restart (their
 * worker still reports their outcome).
 */
@Startup
@Singleton
public class RemoteRuns {

    private static final Logger LOG = Logger.getLogger(RemoteRuns.class);
    private final RunReporter reporter;
    private final Duration claimTimeout;
    /** After the broker is back, on top of a worker's miss window, before its silence counts. */
    private final Duration rejoinGrace;
    private final Clock clock;
    private final BrokerProbe broker;
    /** Since when the broker has answered every probe; MIN when no probe failed yet, null while it does not answer. */
    private Instant reachableSince = Instant.MIN;
    private final Map<UUID, Watched> runs = new HashMap<>();
    private final Map<String, Beat> workers = new HashMap<>();

    @Inject
    public RemoteRuns(RunReporter reporter, TrimusConfig config, BrokerProbe broker, Clock clock) {
        this.reporter = reporter;
        this.claimTimeout = config.remote().claimTimeout();
        this.rejoinGrace = config.remote().rejoinGrace();
        this.clock = clock;
        this.broker = broker;
    }

    /** Starts watching a task about to be published for {@code request}. */
    public synchronized void watch(RemoteTask task, RunRequested request) {
        runs.put(task.runId(), new Watched(request, task.workerTag(), task.claimBy()));
    }

    /**
     * A cancel for a watched run: an unclaimed one ends CANCELLED here (a worker that sees its task later has heard
     * the cancel too and does not start it); a claimed one is left to its worker.
     *
     * @return whether the run was watched here
     */
    public boolean cancel(UUID runId) {
        Watched cancelled;
        synchronized (this) {
            Watched watched = runs.get(runId);
            if (watched == null) {
                return false;
            }
            if (watched.worker != null) {
                return true;
            }
            cancelled = runs.remove(runId);
        }
        end(cancelled, RunState.CANCELLED, "cancelled before a worker claimed it");
        return true;
    }

    /** A worker's beat: it is alive, and holds exactly the runs it lists. */
    public synchronized void onHeartbeat(WorkerHeartbeat beat) {
        if (beat.workerId() == null) {
            return;
        }
        workers.put(beat.workerId(), new Beat(beat, clock.instant()));
        Set<UUID> held = new HashSet<>(beat.runIds());
        for (Iterator<Map.Entry<UUID, Watched>> it = runs.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<UUID, Watched> entry = it.next();
            Watched watched = entry.getValue();
            if (watched.worker == null && held.contains(entry.getKey())) {
                watched.worker = beat.workerId();
                LOG.infof("remote run %s claimed by worker %s (tag %s)", entry.getKey(), beat.workerId(), watched.tag);
            } else if (beat.workerId().equals(watched.worker) && !held.contains(entry.getKey())) {
                it.remove();   // the worker ended it and reported the outcome itself
            }
        }
    }

    /** Fails the runs no worker claimed in time and those whose worker stopped beating. */
    @Scheduled(identity = "trimus-remote-watch", every = "${trimus.remote.watch-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        try {
            if (holdsClaimedRuns()) {
                observe(broker.reachable());   // outside the lock: the probe waits on the network
            }
            Instant now = clock.instant();
            for (Ended ended : overdue(now)) {
                end(ended.run, RunState.FAILED, ended.reason);
            }
        } catch (RuntimeException e) {
            LOG.warn("could not check remote runs; trying again at the next tick", e);
        }
    }

    private synchronized boolean holdsClaimedRuns() {
        return runs.values().stream().anyMatch(watched -> watched.worker != null);
    }

    private synchronized void observe(boolean reachable) {
        if (!reachable && reachableSince != null) {
            LOG.warn("the Kafka broker does not answer: no worker is judged lost until it is back");
            reachableSince = null;
        } else if (reachable && reachableSince == null) {
            reachableSince = clock.instant();
            LOG.infof("the Kafka broker answers again: a worker silent for its miss window and %s more from now on"
                    + " is judged lost", describe(rejoinGrace));
        }
    }

    /** Whether heartbeats could have arrived for the worker's whole miss window up to now. */
    private boolean heardLongEnough(Beat latest, Instant now) {
        if (reachableSince == null) {
            return false;
        }
        Duration window = Duration.ofMillis(WorkerHeartbeat.MISSED_BEATS
                * Math.max(latest.beat.heartbeatIntervalMs(), 1));
        return reachableSince.equals(Instant.MIN) || !now.isBefore(reachableSince.plus(window).plus(rejoinGrace));
    }

    private synchronized List<Ended> overdue(Instant now) {
        List<Ended> ended = new java.util.ArrayList<>();
        for (Iterator<Watched> it = runs.values().iterator(); it.hasNext(); ) {
            Watched watched = it.next();
            if (watched.worker == null && !now.isBefore(watched.claimBy)) {
                it.remove();
                ended.add(new Ended(watched, "no worker with tag " + watched.tag + " claimed the run within "
                        + describe(claimTimeout)));
            } else if (watched.worker != null) {
                Beat latest = workers.get(watched.worker);
                if (latest != null && !latest.beat.liveAt(latest.receivedAt, now) && heardLongEnough(latest, now)) {
                    it.remove();
                    ended.add(new Ended(watched, "worker lost: worker " + watched.worker + " (tag " + watched.tag
                            + ") stopped sending heartbeats while the run was in progress"));
                }
            }
        }
        return ended;
    }

    private void end(Watched watched, RunState state, String reason) {
        RunRequested request = watched.request;
        reporter.report(RunStatusChanged.of(request.runId(), request.companyId(), request.agentId(), state, null, null,
                reason));
    }

    static String describe(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static final class Watched {
        final RunRequested request;
        final String tag;
        final Instant claimBy;
        String worker;

        Watched(RunRequested request, String tag, Instant claimBy) {
            this.request = request;
            this.tag = tag;
            this.claimBy = claimBy;
        }
    }

    private record Beat(WorkerHeartbeat beat, Instant receivedAt) {
    }

    private record Ended(Watched run, String reason) {
    }
}
