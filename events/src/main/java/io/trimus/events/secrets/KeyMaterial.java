package io.trimus.events.secrets;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.stream.IntStream;

/** How a Trimus key is written (32 random bytes as base64 or 64 hex digits) and how purposes are derived from it. */
final class KeyMaterial {
    static final int KEY_BYTES = 32;
    /** 32 random bytes repeat a value now and then; fewer than this many distinct values is a pattern, not a key. */
    private static final int MIN_DISTINCT_BYTES = 16;

    private KeyMaterial() {
    }

    /**
     * The key's bytes.
     *
     * @throws IllegalArgumentException with a sentence an operator can act on; it never contains the key
     */
    static byte[] parse(String env, String text, String whoNeedsIt) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(env + " is not set: " + whoNeedsIt);
        }
        byte[] bytes = decode(text.strip());
        if (bytes == null || bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException(env + " must be 32 bytes written as base64 (44 characters) or as 64 hex"
                    + " digits; generate one with `openssl rand -base64 32`");
        }
        long distinct = IntStream.range(0, bytes.length).map(i -> bytes[i]).distinct().count();
        if (distinct < MIN_DISTINCT_BYTES) {
            throw new IllegalArgumentException(env + " is too weak (it repeats a few byte values instead of being"
                    + " random); generate one with `openssl rand -base64 32`");
        }
        return bytes;
    }

    /** HMAC-SHA256 of the key over {@code "trimus/" + purpose}: one-way, so no purpose's key yields another's. */
    static byte[] derive(byte[] key, String purpose) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(key, "HmacSHA256"));
            return hmac.doFinal(("trimus/" + purpose).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    private static byte[] decode(String text) {
        if (text.length() == 2 * KEY_BYTES && text.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return HexFormat.of().parseHex(text);
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException notStandard) {
            try {
                return Base64.getUrlDecoder().decode(text);
            } catch (IllegalArgumentException notBase64) {
                return null;
            }
        }
    }
}
