package io.trimus.egress.tunnelling;

/**
 * The running score of one sandbox's names under one base domain. Each distinct name adds what its labels can carry
 * ({@link NameShape#bits}, an estimate of the bytes it could get out) and one to the count of distinct names; a
 * repeat adds nothing (a 2,048-bit Bloom filter tells, so memory stays fixed; once it fills, a new name may pass for
 * a repeat, by then the score is long up). The score is the chance either count is too much for benign use:
 * {@code 1 - (1 - b/(b + 256)) * (1 - u/(u + 40))}, with {@code b} the estimated bytes (raised by up to half again
 * when most names were denied or asked odd record types) and {@code u} the distinct names: 0.8 at about 1 KB, or at
 * 160 names of nothing. Guarded by its sandbox's lock.
 */
final class DomainScore {
    /** Bytes at which the bytes' share of the score is one half. */
    static final double BYTES_HALF = 256;
    /** Distinct names at which their share of the score is one half. */
    static final double NAMES_HALF = 40;
    private static final int BLOOM_WORDS = 32;

    final long baseHash;
    final String base;
    private final long[] seen = new long[BLOOM_WORDS];
    private long names;
    private long distinct;
    private double bits;
    private double entropySum;
    private long characterSum;
    private int longestLabel;
    private long denied;
    private long oddTypes;
    private long firstSeenNanos;
    private long lastNewNanos;
    /** Whether the score crossed the threshold (then it stays crossed for the sandbox's run). */
    boolean crossed;

    DomainScore(long baseHash, String base) {
        this.baseHash = baseHash;
        this.base = base;
    }

    /** Adds one use of a name of hash {@code nameHash} and shape {@code shape}. */
    void add(long nameHash, NameShape shape, boolean deniedOrMissing, boolean oddType, long nowNanos) {
        if (names++ == 0) {
            firstSeenNanos = nowNanos;
        }
        if (deniedOrMissing) {
            denied++;
        }
        if (oddType) {
            oddTypes++;
        }
        if (!firstTime(nameHash)) {
            return;
        }
        distinct++;
        lastNewNanos = nowNanos;
        bits += shape.bits();
        entropySum += shape.entropy();
        characterSum += shape.characters();
        longestLabel = Math.max(longestLabel, shape.longestLabel());
    }

    /** The score, 0 to 1. */
    double score() {
        double share = names == 0 ? 0 : (double) denied / names + (double) oddTypes / names;
        double bytes = bits / 8 * (1 + Math.min(1, share) / 2);
        double byBytes = bytes / (bytes + BYTES_HALF);
        double byNames = distinct / (distinct + NAMES_HALF);
        return 1 - (1 - byBytes) * (1 - byNames);
    }

    /** The {@link Signal}s that are up, as a mask. */
    int signals() {
        int mask = 0;
        if (distinct == 0) {
            return mask;
        }
        if ((double) characterSum / distinct > 20 || longestLabel >= 40) {
            mask |= Signal.LONG_NAMES.bit();
        }
        if (entropySum / distinct >= 3.5) {
            mask |= Signal.HIGH_ENTROPY.bit();
        }
        if (distinct >= 20 && distinct >= 0.8 * names) {
            mask |= Signal.UNIQUE_NAMES.bit();
        }
        double minutes = Math.max(1, (lastNewNanos - firstSeenNanos) / 60e9);
        if (distinct / minutes >= 30) {
            mask |= Signal.RATE.bit();
        }
        if (names >= 10 && denied * 2 >= names) {
            mask |= Signal.NXDOMAIN.bit();
        }
        if (oddTypes * 3 >= names) {
            mask |= Signal.RECORD_TYPES.bit();
        }
        return mask;
    }

    /** Distinct names seen. */
    long distinct() {
        return distinct;
    }

    /** Sets the name's two bits; true when one of them was clear (the name is new). */
    private boolean firstTime(long hash) {
        int first = (int) (hash & 2047);
        int second = (int) ((hash >>> 11) & 2047);
        boolean fresh = (seen[first >>> 6] & (1L << first)) == 0 || (seen[second >>> 6] & (1L << second)) == 0;
        seen[first >>> 6] |= 1L << first;
        seen[second >>> 6] |= 1L << second;
        return fresh;
    }
}
