package io.trimus.egress.allowlist;

import java.util.Collection;

/**
 * An immutable set of normalised names that answers "is this part of a name in the set" for any
 * {@link CharSequence} range without building a String: the resolver asks it with the name it read from the packet,
 * once for the whole name and once per suffix after a dot. Open addressing with linear probing over a table at most
 * half full; a range's hash is {@link String#hashCode()}'s formula, so it equals the stored name's.
 */
final class NameSet {
    private static final NameSet EMPTY = new NameSet(new String[0]);

    private final String[] slots;
    private final int[] hashes;
    private final int mask;
    private final int size;

    private NameSet(String[] names) {
        int capacity = Integer.highestOneBit(Math.max(2, names.length) * 4 - 1);
        slots = new String[capacity];
        hashes = new int[capacity];
        mask = capacity - 1;
        int added = 0;
        for (String name : names) {
            int hash = name.hashCode();
            int at = spread(hash) & mask;
            while (slots[at] != null && !slots[at].equals(name)) {
                at = (at + 1) & mask;
            }
            if (slots[at] == null) {
                slots[at] = name;
                hashes[at] = hash;
                added++;
            }
        }
        size = added;
    }

    /** The set of {@code names}. */
    static NameSet of(Collection<String> names) {
        return names.isEmpty() ? EMPTY : new NameSet(names.toArray(String[]::new));
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Whether the set holds exactly the characters {@code name[from, to)}. */
    boolean contains(CharSequence name, int from, int to) {
        if (size == 0) {
            return false;
        }
        int hash = 0;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + name.charAt(i);
        }
        int length = to - from;
        for (int at = spread(hash) & mask; slots[at] != null; at = (at + 1) & mask) {
            if (hashes[at] == hash && sameChars(slots[at], name, from, length)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the set holds {@code name} or, when {@code orSuffix}, any suffix of it that follows a dot. */
    boolean containsNameOrSuffix(CharSequence name, boolean orSuffix) {
        int length = name.length();
        if (!orSuffix) {
            return contains(name, 0, length);
        }
        for (int dot = indexOfDot(name, 0); dot >= 0; dot = indexOfDot(name, dot + 1)) {
            if (contains(name, dot + 1, length)) {
                return true;
            }
        }
        return false;
    }

    private static int indexOfDot(CharSequence name, int from) {
        for (int i = from; i < name.length(); i++) {
            if (name.charAt(i) == '.') {
                return i;
            }
        }
        return -1;
    }

    private static boolean sameChars(String stored, CharSequence name, int from, int length) {
        if (stored.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (stored.charAt(i) != name.charAt(from + i)) {
                return false;
            }
        }
        return true;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
