package io.trimus.run.service;

import io.quarkus.runtime.Startup;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.UUID;

/**
 * The keys of run-service, from TRIMUS_ENCRYPTION_KEY: one for secrets at rest, one for sealing them into a dispatch.
 * Created at boot, so a missing or weak key stops the service with a sentence instead of failing the first secret.
 */
@Startup
@ApplicationScoped
public class SecretCipher {
    private static final String AT_REST = "secrets-at-rest/v1";

    private final SecretBox atRest;
    private final DispatchSecrets dispatch;

    @Inject
    public SecretCipher(TrimusConfig config) {
        this(EncryptionKey.parse(config.encryptionKey().orElse(null)));
    }

    public SecretCipher(EncryptionKey key) {
        this.atRest = new SecretBox(key.derive(AT_REST));
        this.dispatch = new DispatchSecrets(key);
    }

    /** The stored form of a company secret's value. */
    public byte[] encrypt(UUID companyId, String name, String value) {
        return atRest.seal(value, context(companyId, name));
    }

    /**
     * The value of a stored company secret.
     *
     * @throws SecretBox.WrongKeyException when it was stored under another key (or moved between companies or names)
     */
    public String decrypt(UUID companyId, String name, byte[] ciphertext) {
        return atRest.open(ciphertext, context(companyId, name));
    }

    /** The values sealed for one run's run.requested event. */
    public Map<String, String> sealForDispatch(UUID runId, Map<String, String> plain) {
        return dispatch.seal(runId, plain);
    }

    private static String context(UUID companyId, String name) {
        return "company:" + companyId + "/secret:" + name;
    }
}
