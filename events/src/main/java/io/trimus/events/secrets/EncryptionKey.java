package io.trimus.events.secrets;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * TRIMUS_ENCRYPTION_KEY, checked once: 32 random bytes written as base64 or 64 hex digits. Each use gets its own
 * key derived from it (secrets at rest, the {@link DispatchKey}), so a ciphertext of one purpose never opens under
 * another. Only run-service needs it; the adapter service may hold it instead of the dispatch key, a worker never.
 */
public final class EncryptionKey {
    /** The environment variable holding the key. */
    public static final String ENV = "TRIMUS_ENCRYPTION_KEY";

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
        return new EncryptionKey(KeyMaterial.parse(ENV, text, "generate one with `openssl rand -base64 32`"
                + " and give it to run-service (the adapter service needs it or TRIMUS_DISPATCH_KEY)"));
    }

    /** The AES-256 key for one purpose, e.g. {@code "secrets-at-rest/v1"}. */
    public SecretKey derive(String purpose) {
        return new SecretKeySpec(KeyMaterial.derive(master, purpose), "AES");
    }

    /** The dispatch-only key of this master key, as a worker is given it (TRIMUS_DISPATCH_KEY unset). */
    public DispatchKey dispatchKey() {
        return DispatchKey.of(KeyMaterial.derive(master, DispatchKey.PURPOSE));
    }

    @Override
    public String toString() {
        return "EncryptionKey[redacted]";
    }
}
