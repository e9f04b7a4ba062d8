package io.trimus.egress.ca;

import io.quarkus.runtime.Startup;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.EncryptionKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;

/**
 * egress-service's keys, read once from TRIMUS_ENCRYPTION_KEY: the master key (the egress CA's private key is sealed
 * under a key derived from it) and its dispatch key (masked secrets arrive sealed under it). Created at start, so a
 * malformed key stops the service with a sentence naming the variable, never the key; an absent key is allowed, and
 * the features that need one answer 503.
 */
@Startup
@ApplicationScoped
public class EgressKeys {
    private final Optional<EncryptionKey> encryptionKey;

    @Inject
    EgressKeys(TrimusConfig config) {
        this(config.encryptionKey());
    }

    /** Parses {@code encryptionKey}; blank counts as absent. */
    public EgressKeys(Optional<String> encryptionKey) {
        this.encryptionKey = encryptionKey.filter(k -> !k.isBlank()).map(EncryptionKey::parse);
    }

    /** The master key, when one is configured. */
    public Optional<EncryptionKey> encryptionKey() {
        return encryptionKey;
    }

    /** The dispatch key derived from the master key, when one is configured. */
    public Optional<DispatchKey> dispatchKey() {
        return encryptionKey.map(EncryptionKey::dispatchKey);
    }
}
