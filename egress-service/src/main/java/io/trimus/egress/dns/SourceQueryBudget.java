package io.trimus.egress.dns;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.trimus.egress.sandbox.IpAddresses;
import org.jboss.logging.Logger;

import java.net.InetAddress;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Queries per second per source address (per sandbox: attribution is by source address), so one sandbox's flood
 * cannot take the resolver from the others. A token bucket per source, kept as the bucket's "theoretical arrival
 * time" in one {@link AtomicLong} (GCRA): a rested source may ask {@code burst} questions at once, then {@code qps} a
 * second; a question over the budget is not charged, so a source is served again as soon as it slows down.
 * <p>
 * The hot path is a cache lookup, {@link System#nanoTime} and one compare-and-set, no lock. The per-source state is
 * bounded (Caffeine, {@code maxSources} entries) and a source's entry expires once it has been quiet for as long as a
 * full bucket takes to refill, when a fresh entry would be identical: a flood of spoofed sources cannot grow it, and
 * at worst evicts a busy source's entry early, giving it a full bucket (the limit fails open, never shut).
 */
public final class SourceQueryBudget {
    private static final Logger LOG = Logger.getLogger(SourceQueryBudget.class);
    /** Sources tracked at once: a /16 of sandboxes. */
    static final int MAX_SOURCES = 65_536;
    /** At most one log line per source and this interval, with the count of questions refused meanwhile. */
    static final long NOTE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final int qps;
    private final int burst;
    private final long interval;
    private final long tolerance;
    private final LongSupplier nanoTime;
    private final Cache<InetAddress, Bucket> buckets;

    /** One source's bucket: when it is empty again if nothing more is asked, and what is noted of its refusals. */
    private static final class Bucket {
        final AtomicLong emptyAt;
        final AtomicLong refusedSinceNote = new AtomicLong();
        final AtomicLong notedAt;

        Bucket(long now) {
            emptyAt = new AtomicLong(now);
            notedAt = new AtomicLong(now - NOTE_INTERVAL_NANOS);
        }
    }

    /**
     * @param qps      questions a second one source may ask, sustained; 0 turns the budget off
     * @param burst    questions a rested source may ask at once (at least 1)
     * @param nanoTime the monotonic clock ({@code System::nanoTime}; tests pass their own)
     */
    public SourceQueryBudget(int qps, int burst, LongSupplier nanoTime) {
        if (qps < 0) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_DNS_PER_SANDBOX_QPS must be 0 (off) or more, got " + qps);
        }
        if (qps > 0 && burst < 1) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_DNS_PER_SANDBOX_BURST must be at least 1, got " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.interval = qps == 0 ? 0 : Math.max(1, TimeUnit.SECONDS.toNanos(1) / qps);
        this.tolerance = interval * burst;
        this.nanoTime = nanoTime;
        // same-thread maintenance, as the answer cache: nothing runs on a pool the resolver does not own
        this.buckets = Caffeine.newBuilder()
                .maximumSize(MAX_SOURCES)
                .expireAfterAccess(Duration.ofNanos(Math.max(tolerance, TimeUnit.SECONDS.toNanos(1))))
                .ticker(nanoTime::getAsLong)
                .executor(Runnable::run)
                .build();
    }

    /** Unlimited: every question is within budget. */
    public static SourceQueryBudget off() {
        return new SourceQueryBudget(0, 0, System::nanoTime);
    }

    /** Whether a question from {@code sourceIp} is within its budget now; if so it is charged. */
    public boolean tryAcquire(String sourceIp) {
        if (interval == 0) {
            return true;
        }
        InetAddress source = IpAddresses.parse(sourceIp);
        // Sources come from sockets, so they always parse; were one not to, the limit fails open as it does on eviction.
        return source == null || tryAcquire(source);
    }

    /** Whether a question from {@code source} is within its budget now; if so it is charged. Allocates nothing. */
    public boolean tryAcquire(InetAddress source) {
        if (interval == 0) {
            return true;
        }
        long now = nanoTime.getAsLong();
        Bucket bucket = buckets.getIfPresent(source);
        if (bucket == null) {
            bucket = buckets.get(source, ip -> new Bucket(now));
        }
        while (true) {
            long emptyAt = bucket.emptyAt.get();
            long next = Math.max(emptyAt, now) + interval;
            if (next - now > tolerance) {
                refused(source, bucket, now);
                return false;
            }
            if (bucket.emptyAt.compareAndSet(emptyAt, next)) {
                return true;
            }
        }
    }

    private void refused(InetAddress source, Bucket bucket, long now) {
        long refused = bucket.refusedSinceNote.incrementAndGet();
        long notedAt = bucket.notedAt.get();
        if (now - notedAt >= NOTE_INTERVAL_NANOS && bucket.notedAt.compareAndSet(notedAt, now)) {
            bucket.refusedSinceNote.addAndGet(-refused);
            LOG.warnf("DNS queries from %s are over TRIMUS_EGRESS_DNS_PER_SANDBOX_QPS=%d (burst %d): %d answered"
                    + " REFUSED since the last note", source.getHostAddress(), qps, burst, refused);
        }
    }

    /** Sources tracked now (after pending expiry), for the bounded-memory test. */
    long trackedSources() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }
}
