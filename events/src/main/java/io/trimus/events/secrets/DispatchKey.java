package io.trimus.events.secrets;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.util.HexFormat;
import java.util.Optional;

/**
 * TRIMUS_DISPATCH_KEY: the key run-service, the adapter service and the workers share to seal a run's secrets for
 * transport ({@link DispatchSecrets}) and to authenticate remote tasks ({@link TaskMacs}). It is derived one-way from
 * TRIMUS_ENCRYPTION_KEY (HMAC-SHA256 over {@code "trimus/dispatch/v1"}): run-service derives it, and a worker is given
 * only the derived value. Nothing derived from it opens a secret stored at rest, and the master key cannot be computed
 * back from it, so a worker can never read the company secrets run-service keeps.
 */
public final class DispatchKey {
    /** The environment variable holding the key. */
    public static final String ENV = "TRIMUS_DISPATCH_KEY";
    static final String PURPOSE = "dispatch/v1";

    private final byte[] key;

    private DispatchKey(byte[] key) {
        this.key = key;
    }

    static DispatchKey of(byte[] key) {
        return new DispatchKey(key);
    }

    /**
     * Reads the key as configured.
     *
     * @throws IllegalArgumentException with a sentence an operator can act on; it never contains the key
     */
    public static DispatchKey parse(String text) {
        return new DispatchKey(KeyMaterial.parse(ENV, text, "give a worker run-service's dispatch key"
                + " (./trimus worker derives it from .trimus/encryption.key; docs/remote-workers.md)"));
    }

    /**
     * The dispatch key a service is configured with: TRIMUS_DISPATCH_KEY when set, else the one derived from
     * TRIMUS_ENCRYPTION_KEY, else none. When both are set they must agree, or the service would seal what its peers
     * cannot open.
     *
     * @throws IllegalArgumentException when a key is malformed or the two disagree
     */
    public static Optional<DispatchKey> configured(Optional<String> dispatchKey, Optional<String> encryptionKey) {
        Optional<DispatchKey> own = dispatchKey.filter(k -> !k.isBlank()).map(DispatchKey::parse);
        Optional<DispatchKey> derived = encryptionKey.filter(k -> !k.isBlank())
                .map(k -> EncryptionKey.parse(k).dispatchKey());
        if (own.isPresent() && derived.isPresent() && !own.get().equals(derived.get())) {
            throw new IllegalArgumentException(ENV + " is not the dispatch key of this " + EncryptionKey.ENV
                    + ": set one of them, or set " + ENV + " to the value run-service uses");
        }
        return own.or(() -> derived);
    }

    /** The AES-256 or HMAC key for one purpose, e.g. {@code "dispatch-secrets/v2"}. */
    SecretKey derive(String purpose, String algorithm) {
        return new SecretKeySpec(KeyMaterial.derive(key, purpose), algorithm);
    }

    /** The key as 64 hex digits, the form TRIMUS_DISPATCH_KEY takes (for tests and operators' tooling). */
    public String toHex() {
        return HexFormat.of().formatHex(key);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DispatchKey that && java.security.MessageDigest.isEqual(key, that.key);
    }

    @Override
    public int hashCode() {
        return 0;   // never used as a map key; a hash of the key would leak bits of it
    }

    @Override
    public String toString() {
        return "DispatchKey[redacted]";
    }
}
