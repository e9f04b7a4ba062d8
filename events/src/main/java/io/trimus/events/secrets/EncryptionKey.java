package io.trimus.events.secrets;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.stream.IntStream;

/**
 * TRIMUS_ENCRYPTION_KEY, checked once: 32 random bytes written as base64 or 64 hex digits. Each use gets its own
 * key derived from it (secrets at rest, secrets in a dispatch), so a ciphertext of one purpose never opens under
 * another.
 */
public final class EncryptionKey {
    /** The environment variable holding the key. */
    public static final String ENV = "TRIMUS_ENCRYPTION_KEY";
    private static final int KEY_BYTES = 32;
    /** 32 random bytes repeat a value now and then; fewer than this many distinct values is a pattern, not a key. */
    private static final int MIN_DISTINCT_BYTES = 16;

    private final byte[] master;

    private EncryptionKey(byte[] master) {
        this.master = master;
    }

    /**
     * Reads the key as configured.
     *
     * @throws IllegalArgumentException with a sentence an operator can act on; it never contains the key
     */
    public static EncryptionKey parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(ENV + " is not set: generate one with `openssl rand -base64 32`"
                    + " and give the same value to run-service and the adapter service");
        }
        byte[] bytes = decode(text.strip());
        if (bytes == null || bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException(ENV + " must be 32 bytes written as base64 (44 characters) or as 64 hex"
                    + " digits; generate one with `openssl rand -base64 32`");
        }
        long distinct = IntStream.range(0, bytes.length).map(i -> bytes[i]).distinct().count();
        if (distinct < MIN_DISTINCT_BYTES) {
            throw new IllegalArgumentException(ENV + " is too weak (it repeats a few byte values instead of being"
                    + " random); generate one with `openssl rand -base64 32`");
        }
        return new EncryptionKey(bytes);
    }

    /** The AES-256 key for one purpose, e.g. {@code "secrets-at-rest/v1"}. */
    public SecretKey derive(String purpose) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(master, "HmacSHA256"));
            return new SecretKeySpec(hmac.doFinal(("trimus/" + purpose).getBytes(StandardCharsets.UTF_8)), "AES");
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

    @Override
    public String toString() {
        return "EncryptionKey[redacted]";
    }
}
