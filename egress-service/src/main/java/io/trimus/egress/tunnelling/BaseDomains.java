package io.trimus.egress.tunnelling;

import com.google.common.net.InternetDomainName;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The base domain of a name: its registrable domain by the Public Suffix List (Guava's copy, ICANN and private
 * sections: {@code a.b.example.co.uk} → {@code example.co.uk}, {@code x.y.user.github.io} → {@code user.github.io}),
 * or its last two labels when it is under no listed suffix ({@code .test}, {@code .internal}).
 *
 * <p>Asked once per name on the resolver's hot path, so it allocates nothing for a name under a base domain it has
 * seen: the depth of the base domain (in labels) is remembered for the hash of the name's last two labels, or of more
 * (up to five) where the public suffix reaches past them ({@code s3.us-west-2.amazonaws.com}), in a fixed table
 * written without locks; a miss asks Guava with the whole name. A remembered depth came from a name whose public
 * suffix lies within the key, so it matches every name ending in the key: the depth is never deeper than the list's
 * for them, and at worst names under a deeper private suffix are grouped with their parent domain, seen first
 * (coarser, never split finer than the list allows). Names are normalised (lower case, dotted, no trailing dot).
 */
public final class BaseDomains {
    private static final int TABLE_BITS = 12;
    private static final int DEPTH_BITS = 4;
    private static final long DEPTH_MASK = (1L << DEPTH_BITS) - 1;
    /** Depth stored for a key the public suffix reaches past: look with one more label. */
    private static final int DEEPER = 15;
    /** The longest key, in labels; names under longer public suffixes are asked whole, every time. */
    private static final int MAX_KEY_LABELS = 5;

    private final AtomicLongArray depths = new AtomicLongArray(1 << TABLE_BITS);

    /**
     * Where the base domain starts in {@code name}: the index of its first character (0 when the name is its own
     * base domain, or has two labels or fewer).
     */
    public int start(CharSequence name) {
        int length = name.length();
        if (labelStartFromEnd(name, length, 2) == 0) {
            return 0;
        }
        String whole = null;
        for (int key = 2; key <= MAX_KEY_LABELS; key++) {
            int keyStart = labelStartFromEnd(name, length, key);
            if (keyStart == 0) {
                break;
            }
            long hash = Hashes.of(name, keyStart, length);
            int slot = (int) (hash >>> (64 - TABLE_BITS));
            long entry = depths.getOpaque(slot);
            if (entry != 0 && (entry & ~DEPTH_MASK) == (hash & ~DEPTH_MASK)) {
                int depth = (int) (entry & DEPTH_MASK);
                if (depth != DEEPER) {
                    return labelStartFromEnd(name, length, depth);
                }
                continue;
            }
            if (whole == null) {
                whole = name.toString();
            }
            String base = wholeBase(whole);
            int depth = labels(base);
            // the public suffix (depth - 1 labels) lies within the key: every name ending in the key matches it too
            depths.setOpaque(slot, (hash & ~DEPTH_MASK) | (depth - 1 <= key ? depth : DEEPER));
            return length - base.length();
        }
        return length - wholeBase(whole == null ? name.toString() : whole).length();
    }

    /** The base domain of {@code name}, as a string (allocates: for events and tests). */
    public String of(CharSequence name) {
        return name.subSequence(start(name), name.length()).toString();
    }

    /**
     * The registrable domain by Guava's list; the name itself when it is a public suffix; its last two labels when
     * the list knows no suffix of it (or it is no domain name Guava reads).
     */
    private static String wholeBase(String name) {
        InternetDomainName domain = parse(name);
        if (domain != null && domain.isUnderPublicSuffix()) {
            return domain.topPrivateDomain().toString();
        }
        if (domain != null && domain.isPublicSuffix()) {
            return name;
        }
        return name.substring(labelStartFromEnd(name, name.length(), 2));
    }

    private static int labels(String name) {
        int labels = 1;
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) == '.') {
                labels++;
            }
        }
        return labels;
    }

    private static InternetDomainName parse(String name) {
        try {
            return InternetDomainName.from(name);
        } catch (IllegalArgumentException notADomain) {
            return null;
        }
    }

    /**
     * The index where the {@code labels}-th label from the end starts, or 0 when the name has no more labels than
     * that.
     */
    static int labelStartFromEnd(CharSequence name, int length, int labels) {
        int seen = 0;
        for (int i = length - 1; i >= 0; i--) {
            if (name.charAt(i) == '.' && ++seen == labels) {
                return i + 1;
            }
        }
        return 0;
    }
}
