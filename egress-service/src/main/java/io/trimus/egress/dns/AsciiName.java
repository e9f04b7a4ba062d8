package io.trimus.egress.dns;

import java.nio.charset.StandardCharsets;

/**
 * A host name being read from a packet, as reusable ASCII characters: what the in-place path hands to the allowlist
 * and the anomaly recorder instead of a new String per query. Mutable, so it has no value equality; whoever keeps
 * the name beyond the call takes {@link #toString()}.
 */
final class AsciiName implements CharSequence {
    private final byte[] chars;
    private int length;

    AsciiName(int capacity) {
        chars = new byte[capacity];
    }

    void clear() {
        length = 0;
    }

    void append(char c) {
        chars[length++] = (byte) c;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return (char) chars[index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        return new String(chars, 0, length, StandardCharsets.ISO_8859_1);
    }
}
