package io.trimus.run.service.worker;

import io.trimus.events.WorkerHeartbeat;
import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The remote workers this run-service has heard from (trimus.worker.heartbeats), with their latest beat. Held in
 * memory: after a restart a worker reappears with its next beat, within seconds. A worker is live while fewer than
 * {@link WorkerHeartbeat#MISSED_BEATS} of its intervals have passed since its latest beat <em>arrived</em> (this
 * host's clock, so the worker's clock need not agree); one silent for TRIMUS_WORKERS_FORGET_AFTER is dropped.
 */
@ApplicationScoped
public class WorkerDirectory {

    private final Map<String, Seen> workers = new ConcurrentHashMap<>();
    private final Duration forgetAfter;
    private final Clock clock;

    public WorkerDirectory(TrimusConfig config, Clock clock) {
        this.forgetAfter = config.workers().forgetAfter();
        this.clock = clock;
    }

    /** One worker as GET /api/workers shows it. */
    public record WorkerView(String workerId, List<String> tags, Instant lastSeen, Instant lastHeardAt, boolean live,
                             int running, long heartbeatIntervalMs) {
    }

    /** Records a beat; an older beat arriving late never replaces a newer one. */
    public void heard(WorkerHeartbeat beat) {
        Seen seen = new Seen(beat, clock.instant());
        workers.merge(beat.workerId(), seen, (old, now) ->
                old.beat.lastSeen() != null && now.beat.lastSeen() != null
                        && now.beat.lastSeen().isBefore(old.beat.lastSeen()) ? old : now);
    }

    /** Every worker heard from within TRIMUS_WORKERS_FORGET_AFTER, by id. */
    public List<WorkerView> list() {
        Instant now = clock.instant();
        workers.values().removeIf(seen -> seen.heardAt.plus(forgetAfter).isBefore(now));
        return workers.values().stream()
                .map(seen -> new WorkerView(seen.beat.workerId(), seen.beat.tags(), seen.beat.lastSeen(), seen.heardAt,
                        seen.beat.liveAt(seen.heardAt, now), seen.beat.running(), seen.beat.heartbeatIntervalMs()))
                .sorted(Comparator.comparing(WorkerView::workerId))
                .toList();
    }

    private record Seen(WorkerHeartbeat beat, Instant heardAt) {
    }
}
