package io.trimus.egress.dns;

import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Upstream answers of allowed questions, kept for their TTL so a warm name costs no upstream round trip. Bounded
 * (Caffeine's size eviction: a scan of one-off names does not push out the names sandboxes keep asking for), keyed by
 * (normalised name, type, class). A positive answer lives for the
 * smallest TTL of its answer records, a negative one (NXDOMAIN, NODATA) for its SOA's negative TTL (RFC 2308),
 * both capped; served copies carry TTLs reduced by their age.
 */
public final class AnswerCache {
    /** What one cached answer answers. */
    public record Key(String qname, int qtype, int qclass) {
    }

    private record Entry(Message answer, long storedAtNanos, long expiresAtNanos, long ttlSeconds) {
    }

    private static final int[] RECORD_SECTIONS = {Section.ANSWER, Section.AUTHORITY, Section.ADDITIONAL};
    /**
     * Larger answers are served but not kept, so the cache's memory is bounded by entries × this, not by what an
     * allow-listed zone's owner chooses to put in an answer.
     */
    static final int MAX_CACHED_ANSWER_BYTES = 4096;

    private final int maxEntries;
    private final long maxTtlSeconds;
    private final LongSupplier nanoTime;
    private final Cache<Key, Entry> entries;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /**
     * @param maxEntries answers kept at most; 0 turns caching off
     * @param maxTtl     longest an answer is kept, whatever its TTL says
     * @param nanoTime   the monotonic clock ({@code System::nanoTime}; tests pass their own)
     */
    public AnswerCache(int maxEntries, Duration maxTtl, LongSupplier nanoTime) {
        this.maxEntries = Math.max(0, maxEntries);
        this.maxTtlSeconds = Math.max(0, maxTtl.toSeconds());
        this.nanoTime = nanoTime;
        // same-thread maintenance: eviction happens inside put, never on a pool the resolver does not own
        this.entries = Caffeine.newBuilder()
                .maximumSize(this.maxEntries)
                .expireAfter(new ForItsTtl())
                .ticker(nanoTime::getAsLong)
                .executor(Runnable::run)
                .build();
    }

    /** Each answer lives for its own cache TTL, from the moment it was stored (again). */
    private static final class ForItsTtl implements Expiry<Key, Entry> {
        @Override
        public long expireAfterCreate(Key key, Entry entry, long currentTime) {
            return entry.expiresAtNanos() - entry.storedAtNanos();
        }

        @Override
        public long expireAfterUpdate(Key key, Entry entry, long currentTime, long currentDuration) {
            return expireAfterCreate(key, entry, currentTime);
        }

        @Override
        public long expireAfterRead(Key key, Entry entry, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }

    /** The cached answer with TTLs reduced by its age, or null on a miss (an expired entry is a miss). */
    public Message get(Key key) {
        long now = nanoTime.getAsLong();
        Entry entry = entries.getIfPresent(key);
        if (entry == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        long age = TimeUnit.NANOSECONDS.toSeconds(now - entry.storedAtNanos());
        return aged(entry.answer(), age, Math.max(0, entry.ttlSeconds() - age));
    }

    /**
     * Keeps an upstream answer when it is cacheable: NOERROR or NXDOMAIN, not truncated, with a TTL above zero, at
     * most {@value #MAX_CACHED_ANSWER_BYTES} bytes on the wire.
     */
    public void put(Key key, Message answer) {
        if (maxEntries == 0 || answer.numBytes() > MAX_CACHED_ANSWER_BYTES) {
            return;
        }
        long ttl = Math.min(maxTtlSeconds, cacheTtl(answer));
        if (ttl <= 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        Entry entry = new Entry(answer, now, now + TimeUnit.SECONDS.toNanos(ttl), ttl);
        entries.put(key, entry);
    }

    /** Seconds an answer may be cached before the cap: 0 when it may not be cached at all. */
    static long cacheTtl(Message answer) {
        if (answer.getHeader().getFlag(org.xbill.DNS.Flags.TC)) {
            return 0;
        }
        int rcode = answer.getRcode();
        if (rcode != Rcode.NOERROR && rcode != Rcode.NXDOMAIN) {
            return 0;
        }
        if (rcode == Rcode.NOERROR && !answer.getSection(Section.ANSWER).isEmpty()) {
            long min = Long.MAX_VALUE;
            for (Record record : answer.getSection(Section.ANSWER)) {
                min = Math.min(min, record.getTTL());
            }
            return min;
        }
        for (Record record : answer.getSection(Section.AUTHORITY)) {
            if (record instanceof SOARecord soa) {
                return Math.min(soa.getTTL(), soa.getMinimum());
            }
        }
        return 0; // a negative answer without SOA says nothing about how long it holds
    }

    private static Message aged(Message answer, long age, long left) {
        Message copy = new Message(answer.getHeader().getID());
        copy.getHeader().setRcode(answer.getHeader().getRcode());
        for (int section : RECORD_SECTIONS) {
            for (Record record : answer.getSection(section)) {
                if (record.getType() == Type.OPT) {
                    continue;
                }
                long ttl = Math.max(0, Math.min(record.getTTL() - age, left));
                copy.addRecord(Record.newRecord(record.getName(), record.getType(), record.getDClass(), ttl,
                        record.rdataToWireCanonical()), section);
            }
        }
        return copy;
    }

    /** Answers served from the cache so far. */
    public long hits() {
        return hits.sum();
    }

    /** Allowed questions the cache could not answer so far. */
    public long misses() {
        return misses.sum();
    }

    /** Answers held now. */
    public int size() {
        entries.cleanUp();
        return Math.toIntExact(entries.estimatedSize());
    }
}
