package io.trimus.adapter.run;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The last {@code maxBytes} bytes of a run's output, however much the container printed, decoded as UTF-8
 * without a broken character at the cut.
 */
public final class StreamTail {

    private final byte[] ring;
    private long total;

    public StreamTail(int maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("TRIMUS_RUN_OUTPUT_MAX_BYTES must be at least 1, got " + maxBytes);
        }
        this.ring = new byte[maxBytes];
    }

    /** Appends a chunk of output. */
    public synchronized void append(byte[] chunk) {
        if (chunk == null || chunk.length == 0) {
            return;
        }
        int skip = Math.max(0, chunk.length - ring.length);
        for (int i = skip; i < chunk.length; i++) {
            ring[(int) ((total + i) % ring.length)] = chunk[i];
        }
        total += chunk.length;
    }

    /** Whether output was dropped from the front. */
    public synchronized boolean truncated() {
        return total > ring.length;
    }

    /** The kept tail as text; at most {@code maxBytes} bytes when encoded as UTF-8. */
    public synchronized String text() {
        int length = (int) Math.min(total, ring.length);
        byte[] bytes = new byte[length];
        long start = total - length;
        for (int i = 0; i < length; i++) {
            bytes[i] = ring[(int) ((start + i) % ring.length)];
        }
        int from = 0;
        if (truncated()) {
            // the cut may fall inside a multi-byte character: drop its continuation bytes
            while (from < Math.min(3, length) && (bytes[from] & 0xC0) == 0x80) {
                from++;
            }
        }
        String text = decode(ByteBuffer.wrap(bytes, from, length - from));
        // a replacement character is 3 bytes where the invalid input may have been 1: stay within the cap
        int excess = text.getBytes(StandardCharsets.UTF_8).length - ring.length;
        int cut = 0;
        while (excess > 0) {
            int cp = text.codePointAt(cut);
            excess -= utf8Length(cp);
            cut += Character.charCount(cp);
        }
        return text.substring(cut);
    }

    private static int utf8Length(int codePoint) {
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }

    private static String decode(ByteBuffer bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try {
            CharBuffer chars = decoder.decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("UTF-8 decoding with REPLACE cannot fail", e);
        }
    }
}
