package io.trimus.egress.anomaly;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The denials folded into one tracked key since its window opened, as {@link RateLimitedAnomalyRecorder} keeps them
 * (times in epoch milliseconds). Counting a repeat takes no lock: the resolver's event loops fold a flood into the
 * same window at once, and a loop waiting on a lock whose holder the scheduler has paused would wait a whole quantum.
 * The count and the closed mark share one word, so a repeat either lands in a window that is still counted or sees
 * it closed and takes the recorder's full path: nothing is lost and nothing counted twice. The times and, for an
 * overflow key, the folded names are kept as closely as that allows: a repeat racing the window's end may stamp the
 * next one, and its name is then added to the next one's too (so a folded name always covers every name counted,
 * at worst more broadly).
 */
final class FoldingWindow {
    /** {@code qname} of an overflow event whose names share no suffix of two labels or more. */
    static final String ANY_NAME = "*";
    private static final long CLOSED = Long.MIN_VALUE;

    /** The repeats counted since the window opened; negative once it is closed. */
    private final AtomicLong repeats = new AtomicLong();
    private final AtomicLong firstRepeat = new AtomicLong();
    private final AtomicLong lastRepeat = new AtomicLong();
    private volatile long opened;
    /** Overflow keys: the one name folded so far, or the suffix all folded names share (null: none). */
    private volatile String names;
    private volatile boolean severalNames;
    /** How many times the window was taken and opened again: tells a lock-free fold that raced an end. */
    private volatile int epoch;

    FoldingWindow(long opened) {
        this.opened = opened;
    }

    /** Counts a repeat at {@code at}; false when the window is closed (the repeat is not counted). */
    boolean repeatIfOpen(long at) {
        if (repeats.getAndIncrement() < 0) {
            return false;
        }
        firstRepeat.compareAndSet(0, at);
        lastRepeat.accumulateAndGet(at, Math::max);
        return true;
    }

    /**
     * Counts a denial of {@code qname} folded into this overflow window; false when it is closed. Takes no lock and
     * allocates nothing while the name is covered by the suffix the folded names share; otherwise updates the
     * suffix under the window's lock (allocating when it gets shorter, or for the window's first name).
     */
    boolean foldIfOpen(long at, CharSequence qname) {
        int seen = epoch;
        if (severalNames) {
            String shared = names;
            if (shared == null || endsWithLabels(qname, shared)) {
                if (!repeatIfOpen(at)) {
                    return false;
                }
                if (epoch != seen) {
                    // the window ended meanwhile and this repeat may count in the next one: give it the name too
                    synchronized (this) {
                        addName(qname);
                    }
                }
                return true;
            }
        }
        synchronized (this) {
            if (repeats.get() < 0) {
                return false;
            }
            addName(qname);
            return repeatIfOpen(at);
        }
    }

    /** Makes the folded names cover {@code qname}; under the lock. */
    private void addName(CharSequence qname) {
        String shared = names;
        if (shared == null && !severalNames) {
            names = qname.toString();
        } else if (shared != null && !shared.contentEquals(qname)) {
            names = commonSuffix(shared, qname);
            severalNames = true;
        }
    }

    /** Whether the window opened at least {@code length} ms before {@code now}. */
    boolean endedBy(long now, long length) {
        return opened + length <= now;
    }

    /**
     * Takes what was folded for publishing: closes the window when {@code close} or when nothing was folded, else
     * opens the next one at {@code now}. Null when nothing was folded.
     */
    synchronized Folded take(long now, boolean close) {
        long first = firstRepeat.getAndSet(0);
        long last = lastRepeat.getAndSet(0);
        String folded = names == null ? ANY_NAME : severalNames ? "*." + names : names;
        long count;
        if (close || repeats.compareAndSet(0, CLOSED)) {
            count = Math.max(0, repeats.getAndSet(CLOSED));
        } else {
            count = repeats.getAndSet(0);
            opened = now;
            names = null;
            severalNames = false;
            epoch++;
        }
        if (count == 0) {
            return null;
        }
        // a repeat counted just before the take may not have stamped its time yet
        long lastSeen = last == 0 ? now : last;
        return new Folded(count, first == 0 ? lastSeen : Math.min(first, lastSeen), lastSeen, folded);
    }

    /** Whether the window is closed. */
    boolean closed() {
        return repeats.get() < 0;
    }

    /**
     * What a window folded.
     *
     * @param foldedName an overflow key's qname: the one name, {@code *.} and the shared suffix, or {@link #ANY_NAME}
     */
    record Folded(long count, long firstSeen, long lastSeen, String foldedName) {
    }

    /**
     * The longest suffix of whole labels that both names end in, if it has at least two labels (so an overflow
     * event never reads {@code *.com}); null otherwise. {@code a} is a name or an earlier result.
     */
    static String commonSuffix(String a, CharSequence b) {
        String suffix = a;
        while (suffix != null && !endsWithLabels(b, suffix)) {
            int dot = suffix.indexOf('.');
            suffix = dot < 0 ? null : suffix.substring(dot + 1);
        }
        return suffix != null && suffix.indexOf('.') > 0 ? suffix : null;
    }

    private static boolean endsWithLabels(CharSequence name, String suffix) {
        int start = name.length() - suffix.length();
        if (start < 0 || start > 0 && name.charAt(start - 1) != '.') {
            return false;
        }
        for (int i = 0; i < suffix.length(); i++) {
            if (name.charAt(start + i) != suffix.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
