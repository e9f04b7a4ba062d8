package io.trimus.events;

import java.nio.charset.StandardCharsets;

/**
 * The run-output cap of the status contract: a run keeps the last {@code maxBytes} of its output (UTF-8), so
 * the end of a log, where failures are reported, survives. A cut never splits a character.
 */
public final class OutputTail {
    /** Marks output whose beginning was cut off. */
    public static final String TRUNCATED_MARKER = "[… output truncated …]\n";
    private static final int MARKER_BYTES = TRUNCATED_MARKER.getBytes(StandardCharsets.UTF_8).length;

    private OutputTail() {
    }

    /**
     * The text itself when it fits in {@code maxBytes} UTF-8 bytes, else its tail behind the marker; a budget
     * too small for the marker keeps the bare tail, since the cap is the promise that matters.
     */
    public static String of(String text, int maxBytes) {
        if (text == null) {
            return null;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= maxBytes ? text : tailOf(bytes, maxBytes);
    }

    /** The same cap for raw output bytes; invalid UTF-8 becomes U+FFFD before the cap is applied. */
    public static String of(byte[] bytes, int length, int maxBytes) {
        // decode first: a replacement character is 3 bytes where the invalid input may have been 1
        return of(new String(bytes, 0, length, StandardCharsets.UTF_8), maxBytes);
    }

    /** {@code bytes} is valid UTF-8 here, so decoding the kept part cannot grow it. */
    private static String tailOf(byte[] bytes, int maxBytes) {
        boolean marked = maxBytes >= MARKER_BYTES;
        int start = bytes.length - Math.max(0, marked ? maxBytes - MARKER_BYTES : maxBytes);
        while (start < bytes.length && (bytes[start] & 0xC0) == 0x80) {
            start++; // skip continuation bytes: never begin inside a character
        }
        String tail = new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
        return marked ? TRUNCATED_MARKER + tail : tail;
    }
}
