package io.trimus.egress.ca;

import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.EncryptionKey;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;

/** Placeholder until the egress CA lands: the deployment's TRIMUS_ENCRYPTION_KEY and the dispatch key from it. */
@ApplicationScoped
public class EgressKeys {
    private final Optional<EncryptionKey> key = ConfigProvider.getConfig()
            .getOptionalValue("trimus.encryption-key", String.class).filter(k -> !k.isBlank()).map(EncryptionKey::parse);

    public Optional<EncryptionKey> encryptionKey() {
        return key;
    }

    public Optional<DispatchKey> dispatchKey() {
        return key.map(EncryptionKey::dispatchKey);
    }
}
