package io.trimus.adapter.run;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.RunRequested;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.Optional;

/**
 * Opens the secrets a run request carries, sealed by run-service under TRIMUS_ENCRYPTION_KEY. The service starts
 * without the key (a docker-only deployment needs none), but a malformed key stops it at boot.
 */
@ApplicationScoped
public class RunSecrets {
    private final Optional<DispatchSecrets> dispatch;

    @Inject
    public RunSecrets(TrimusConfig config) {
        this(config.encryptionKey().filter(k -> !k.isBlank()).map(EncryptionKey::parse));
    }

    public RunSecrets(Optional<EncryptionKey> key) {
        this.dispatch = key.map(DispatchSecrets::new);
    }

    /**
     * The run's secrets in the clear, by the variable they become.
     *
     * @throws RunRejected when they cannot be opened: no key here, or another key than run-service's
     */
    public Map<String, String> open(RunRequested run) {
        if (run.secrets().isEmpty()) {
            return Map.of();
        }
        if (dispatch.isEmpty()) {
            throw new RunRejected("the run carries secrets but TRIMUS_ENCRYPTION_KEY is not set on the adapter"
                    + " service; set it to run-service's value");
        }
        try {
            return dispatch.get().open(run.runId(), run.secrets());
        } catch (SecretBox.WrongKeyException e) {
            throw new RunRejected("the run's secrets do not open with this adapter service's TRIMUS_ENCRYPTION_KEY;"
                    + " it must be the same value as run-service's");
        }
    }
}
