package io.trimus.events.secrets;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * AES-256-GCM with a random 96-bit nonce per message and associated data that binds a ciphertext to where it
 * belongs (a company and name, a run), so a ciphertext copied elsewhere does not open. Output: nonce ‖ ciphertext ‖ tag.
 */
public final class SecretBox {
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;

    public SecretBox(SecretKey key) {
        this.key = key;
    }

    /** Encrypts {@code plaintext} bound to {@code context}. */
    public byte[] seal(String plaintext, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /**
     * Decrypts what {@link #seal} produced for the same context.
     *
     * @throws WrongKeyException when the key or the context differ, or the bytes were altered
     */
    public String open(byte[] sealed, String context) {
        if (sealed == null || sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new WrongKeyException();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key,
                    new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(sealed, 0, NONCE_BYTES)));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new WrongKeyException();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /** A ciphertext that does not open: another key, another context, or altered bytes. */
    public static final class WrongKeyException extends RuntimeException {
        public WrongKeyException() {
            super("the secret does not decrypt with this key (another key, another place, or altered data)",
                    null, false, false);
        }
    }
}
