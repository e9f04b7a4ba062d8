package io.trimus.run.config;

import io.trimus.events.secrets.EncryptionKey;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** TRIMUS_ENCRYPTION_KEY, parsed: a missing or weak key fails the bean that needs it (at boot) with a sentence. */
@Singleton
public class EncryptionKeyProducer {
    @Produces
    @Singleton
    EncryptionKey encryptionKey(TrimusConfig config) {
        return EncryptionKey.parse(config.encryptionKey().orElse(null));
    }
}
