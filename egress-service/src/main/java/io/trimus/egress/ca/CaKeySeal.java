package io.trimus.egress.ca;

import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;

import java.security.PrivateKey;

/**
 * Seals a CA's private key for storage: AES-256-GCM ({@link SecretBox}) under a key derived from TRIMUS_ENCRYPTION_KEY
 * for this purpose alone, bound to the CA's fingerprint, so a sealed key copied to another CA's row does not open.
 */
final class CaKeySeal {
    static final String PURPOSE = "egress-ca/v1";

    private final SecretBox box;

    CaKeySeal(EncryptionKey key) {
        this.box = new SecretBox(key.derive(PURPOSE));
    }

    byte[] seal(PrivateKey key, String fingerprint) {
        return box.seal(Pem.privateKey(key), context(fingerprint));
    }

    /** @throws SecretBox.WrongKeyException when sealed under another key or for another fingerprint */
    PrivateKey open(byte[] sealed, String fingerprint) {
        return Pem.readPrivateKey(box.open(sealed, context(fingerprint)));
    }

    private static String context(String fingerprint) {
        return "egress-ca/" + fingerprint;
    }
}
