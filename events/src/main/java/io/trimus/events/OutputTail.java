package io.trimus.events;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The run-output cap of the status contract: a run keeps the last {@code maxBytes} of its output (UTF-8), so
 * the end of a log, where failures are reported, survives. A cut never splits a character.
 */
public final class OutputTail {
    /** Marks output whose beginning was cut off. */
    public static final String TRUNCATED_MARKER = "[… output truncated …]\n";

    private OutputTail() {
    }

    /** The text itself when it fits in {@code maxBytes} UTF-8 bytes, else its tail behind the marker. */
    public static String of(String text, int maxBytes) {
        if (text == null) {
            return null;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= maxBytes ? text : tailOf(bytes, maxBytes);
    }

    /** The tail of raw UTF-8 bytes, behind the marker when cut. */
    public static String of(byte[] bytes, int length, int maxBytes) {
        if (length <= maxBytes) {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
        byte[] exact = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
        return tailOf(exact, maxBytes);
    }

    private static String tailOf(byte[] bytes, int maxBytes) {
        int start = bytes.length - Math.max(0, maxBytes - TRUNCATED_MARKER.getBytes(StandardCharsets.UTF_8).length);
        while (start < bytes.length && (bytes[start] & 0xC0) == 0x80) {
            start++; // skip continuation bytes: never begin inside a character
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes, start, bytes.length - start));
            return TRUNCATED_MARKER + chars;
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException(e); // cannot happen with REPLACE
        }
    }
}
