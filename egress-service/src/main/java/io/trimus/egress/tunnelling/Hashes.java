package io.trimus.egress.tunnelling;

/** A 64-bit hash of a run of characters, without allocating (FNV-1a, then a finalising mix). */
final class Hashes {
    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private Hashes() {
    }

    /** The hash of {@code text[from, to)}; never 0. */
    static long of(CharSequence text, int from, int to) {
        long hash = OFFSET;
        for (int i = from; i < to; i++) {
            hash ^= text.charAt(i);
            hash *= PRIME;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        return hash == 0 ? 1 : hash;
    }
}
