package io.trimus.run.service.recovery;

import io.trimus.run.repository.run.Run;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Runs a live adapter process holds but its beats no longer list, and since when this replica has seen them so. A
 * process stops listing a run once its terminal status is in {@code trimus.run.status}, but run-service reads that
 * topic and the lease topic with two consumers: after a broker restart (a rebalance each) the status consumer can be
 * seconds behind the lease consumer, and a run that SUCCEEDED would look "let go". So such a run is judged only after
 * it has been left out for TRIMUS_RUN_LET_GO_GRACE; its terminal status, arriving meanwhile, ends it first. Bounded:
 * the longest-known are forgotten first beyond {@value #CAPACITY}.
 */
final class DroppedRuns {
    private static final int CAPACITY = 10_000;

    private final Duration grace;

    private final Map<UUID, Instant> since = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Instant> eldest) {
            return size() > CAPACITY;
        }
    };

    DroppedRuns(Duration grace) {
        this.grace = grace;
    }

    /** How long a run must be left out of a live holder's beats before it is judged let go. */
    Duration grace() {
        return grace;
    }

    /** Of the runs a live holder leaves out, those left out for at least the grace; the others are remembered. */
    synchronized List<Run> ripe(List<Run> dropped, Instant now) {
        List<Run> ripe = new ArrayList<>();
        for (Run run : dropped) {
            Instant first = since.putIfAbsent(run.id, now);
            if (first != null && !first.plus(grace).isAfter(now)) {
                ripe.add(run);
                since.remove(run.id);
            }
        }
        return ripe;
    }

    /** Forgets runs first seen left out before {@code cutoff}: ended, or taken up again, long since. */
    synchronized void forgetBefore(Instant cutoff) {
        since.values().removeIf(first -> first.isBefore(cutoff));
    }
}
