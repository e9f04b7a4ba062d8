package io.trimus.run.service;

import io.trimus.events.AdapterLease;
import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * gets a whole grace again to resume beating, since its producer too has to find the broker. The grace is three of the
 * process's intervals, and never under {@value #MIN_GRACE_SECONDS} s.
 */
@ApplicationScoped
public class LeaseBook {
    private static final Logger LOG = Logger.getLogger(LeaseBook.class);
    static final int MIN_GRACE_SECONDS = 10;
    private static final Duration MIN_GRACE = Duration.ofSeconds(MIN_GRACE_SECONDS);

    private final String self = "run-service-" + UUID.randomUUID();
    private final Map<String, Seen> processes = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration observerInterval;
    private final Duration defaultGrace;
    private final Instant openedAt;
    private volatile Instant readThrough;
    private volatile Instant readThroughAt;
    /** Since when the reading has been current without a gap; no process is judged on silence from before it. */
    private volatile Instant resumedAt;

    @Inject
    public LeaseBook(TrimusConfig config) {
        this(config.run().observerInterval(), Clock.systemUTC());
    }

    LeaseBook(Duration observerInterval, Clock clock) {
        this.clock = clock;
        this.observerInterval = observerInterval;
        // a process not heard from since this replica started: judged with the adapter's default interval
        this.defaultGrace = Duration.ofSeconds(2).multipliedBy(AdapterLease.MISSED_BEATS);
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
        if (beat.isObserver()) {
            if (self.equals(beat.instance()) && (readThrough == null || beat.sentAt().isAfter(readThrough))) {
                if (!current()) {
                    resumedAt = beat.sentAt();
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
        Duration grace = seen != null ? seen.beat.grace() : defaultGrace;
        return last.plus(grace.compareTo(MIN_GRACE) < 0 ? MIN_GRACE : grace).isBefore(through);
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

    /** The grace a process gets before its silence counts, at least {@value #MIN_GRACE_SECONDS} s. */
    public Duration minimumGrace() {
        return MIN_GRACE;
    }

    /** How long {@code instance} has been silent, for the reason a recovered run gives. */
    public Duration silence(String instance) {
        Seen seen = processes.get(instance);
        return Duration.between(seen != null ? seen.readAt : openedAt, clock.instant());
    }

    /** Forgets processes lost for a long time (an hour), so a churn of replicas does not grow the book. */
    public void forgetLongLost() {
        Instant cutoff = clock.instant().minus(Duration.ofHours(1));
        processes.values().removeIf(seen -> seen.readAt.isBefore(cutoff));
    }

    private record Seen(AdapterLease beat, Instant readAt) {
    }
}
