package io.trimus.run.service.recovery;

import io.trimus.events.AdapterLease;
import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * What this replica has read of trimus.adapter.leases: each adapter process's latest beat and when it was read, and how
 * far its reading has got. The topic has one partition, so when this replica reads back its own observer beat sent at
 * T, it has read every beat published before T. A process is lost when no beat of it was read in the grace (three of
 * its intervals) before such a T: alive, it would have published one. Judging only up to what has been read means a
 * broker outage or a lagging consumer never makes a live process look lost; nothing is judged at all until an
 * observer beat came back recently, and after a gap (the broker was away, this replica just started) every process
 * gets a whole grace again, counted from when the reading resumed, since its producer too has to find the broker. A
 * run is judged on its holder and on when the holder took it: a process named holder by a status event before any
 * beat of it was read (its first beat is still on its way) gets a whole grace from then. The grace is three of the
 * process's intervals, and never under TRIMUS_RUN_MIN_LEASE_GRACE (10 s by default). A beat read again (the consumer
 * resumes from its last committed offset after a rebalance or a broker restart) changes nothing.
 */
@ApplicationScoped
public class LeaseBook {
    private static final Logger LOG = Logger.getLogger(LeaseBook.class);
    /** How many beat ids are remembered to recognise a beat read again: minutes of beats of a large fleet. */
    private static final int REMEMBERED_BEATS = 4096;

    private final String self = "run-service-" + UUID.randomUUID();
    private final Map<String, Seen> processes = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration observerInterval;
    private final Duration defaultGrace;
    /** The shortest grace of any process (trimus.run.min-lease-grace). */
    private final Duration minGrace;
    private final Instant openedAt;
    private final RecentIds readBeats = new RecentIds(REMEMBERED_BEATS);
    private volatile Instant readThrough;
    private volatile Instant readThroughAt;
    /** Since when the reading has been current without a gap; no process is judged on silence from before it. */
    private volatile Instant resumedAt;

    public LeaseBook(TrimusConfig config, Clock clock) {
        this.clock = clock;
        this.observerInterval = config.run().observerInterval();
        // a process not heard from since this replica started: judged with the adapter's default interval
        this.defaultGrace = Duration.ofSeconds(2).multipliedBy(AdapterLease.MISSED_BEATS);
        this.minGrace = config.run().minLeaseGrace();
        this.openedAt = clock.instant();
        this.resumedAt = openedAt;
    }

    /** This replica's name on its observer beats. */
    public String self() {
        return self;
    }

    /** Takes in a beat just read. */
    public void read(AdapterLease beat) {
        Instant now = clock.instant();
        if (beat.id() != null && !readBeats.firstTime(beat.id())) {
            return;   // read before: an older beat must not stand for the process's latest, nor refresh it
        }
        if (beat.isObserver()) {
            if (self.equals(beat.instance()) && (readThrough == null || beat.sentAt().isAfter(readThrough))) {
                if (!current()) {
                    // from now, not from when this beat was sent: one sent while the broker was away comes back
                    // late, and the adapters' producers only now find the broker again too
                    resumedAt = now;
                    if (readThroughAt != null) {
                        LOG.infof("reading trimus.adapter.leases again after a gap of %d ms: every adapter process"
                                + " gets a whole grace again", Duration.between(readThroughAt, now).toMillis());
                    }
                }
                readThrough = beat.sentAt();
                readThroughAt = now;
            }
            return;
        }
        processes.put(beat.instance(), new Seen(beat, now));
    }

    /**
     * Whether the reading is recent enough to judge by: an observer beat came back within five observer intervals.
     */
    public boolean current() {
        Instant at = readThroughAt;
        return at != null && at.plus(observerInterval.multipliedBy(5)).isAfter(clock.instant());
    }

    /** Whether {@code instance} is lost as far as has been read; never while {@link #current()} is false. */
    public boolean lost(String instance) {
        Instant through = readThrough;
        if (!current() || through == null) {
            return false;
        }
        Seen seen = processes.get(instance);
        Instant last = seen != null && seen.readAt.isAfter(resumedAt) ? seen.readAt : resumedAt;
        return last.plus(graceOf(instance)).isBefore(through);
    }

    /**
     * Whether a run {@code instance} took at {@code takenAt} (its holder since then, this service's clock; null when
     * unknown) is lost with it: the holder is {@link #lost(String)}, and took it at least a grace before what has been
     * read. Naming a process holder is a sign of life, so one whose first beat has not been read yet is not lost.
     */
    public boolean lost(String instance, Instant takenAt) {
        Instant through = readThrough;
        return lost(instance) && (takenAt == null || takenAt.plus(graceOf(instance)).isBefore(through));
    }

    /**
     * Before when the runs of these holders must have been taken to be judged now (each holder {@link #lost(String)}
     * or not): the largest of their graces before what has been read. Empty while nothing can be judged.
     */
    public Optional<Instant> takenBefore(Collection<String> holders) {
        Instant through = readThrough;
        if (!current() || through == null) {
            return Optional.empty();
        }
        Duration longest = holders.stream().map(this::graceOf).max(Duration::compareTo).orElse(minGrace);
        return Optional.of(through.minus(longest));
    }

    private Duration graceOf(String instance) {
        Seen seen = processes.get(instance);
        Duration grace = seen != null ? seen.beat.grace() : defaultGrace;
        return grace.compareTo(minGrace) < 0 ? minGrace : grace;
    }

    /** The processes read so far that are not lost, i.e. hold their runs. */
    public Set<String> live() {
        return processes.keySet().stream().filter(instance -> !lost(instance)).collect(Collectors.toSet());
    }

    /** A live process whose latest beat lists the run, if any. */
    public Optional<String> liveHolderOf(UUID runId) {
        return processes.entrySet().stream()
                .filter(e -> e.getValue().beat.held().contains(runId) && !lost(e.getKey()))
                .map(Map.Entry::getKey).findFirst();
    }

    /** The runs {@code instance}'s latest beat lists as held (empty when none was read). */
    public Set<UUID> heldBy(String instance) {
        Seen seen = processes.get(instance);
        return seen == null ? Set.of() : Set.copyOf(seen.beat.held());
    }

    /** The shortest grace a process gets before its silence counts (trimus.run.min-lease-grace, 10 s by default). */
    public Duration minimumGrace() {
        return minGrace;
    }

    /** Whether a beat of {@code instance} has been read (and not forgotten). */
    public boolean heard(String instance) {
        return processes.containsKey(instance);
    }

    /**
     * How long {@code instance} has given no sign of life, for the reason a recovered run gives: since its latest beat
     * read, or since it took the run at {@code takenAt} if that was later (or nothing of it was read).
     */
    public Duration silence(String instance, Instant takenAt) {
        Seen seen = processes.get(instance);
        Instant last = seen != null ? seen.readAt : takenAt != null ? takenAt : openedAt;
        if (takenAt != null && takenAt.isAfter(last)) {
            last = takenAt;
        }
        return Duration.between(last, clock.instant());
    }

    /** How long no observer beat of this replica has come back, while that keeps it from judging; else empty. */
    public Optional<Duration> stalledFor() {
        if (current()) {
            return Optional.empty();
        }
        Instant since = readThroughAt;
        return Optional.of(Duration.between(since != null ? since : openedAt, clock.instant()));
    }

    /** Forgets processes lost for a long time (an hour), so a churn of replicas does not grow the book. */
    public void forgetLongLost() {
        Instant cutoff = clock.instant().minus(Duration.ofHours(1));
        processes.values().removeIf(seen -> seen.readAt.isBefore(cutoff));
    }

    private record Seen(AdapterLease beat, Instant readAt) {
    }
}
