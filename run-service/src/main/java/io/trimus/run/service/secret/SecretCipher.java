package io.trimus.run.service.secret;

import io.quarkus.runtime.Startup;
import io.trimus.events.RunRequested;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SecretBox;
import io.trimus.events.secrets.TaskMacs;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.UUID;

/**
 * The keys of run-service, from TRIMUS_ENCRYPTION_KEY: one for secrets at rest, and the dispatch key (what workers are
 * given) for sealing secrets into a dispatch and for the issuer MAC of remote runs.
 * Created at boot, so a missing or weak key stops the service with a sentence instead of failing the first secret.
 */
@Startup
@ApplicationScoped
public class SecretCipher {
    private static final String AT_REST = "secrets-at-rest/v1";

    private final SecretBox atRest;
    private final DispatchSecrets dispatch;
    private final TaskMacs macs;

    public SecretCipher(EncryptionKey key) {
        this.atRest = new SecretBox(key.derive(AT_REST));
        this.dispatch = new DispatchSecrets(key.dispatchKey());
        this.macs = new TaskMacs(key.dispatchKey());
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

    /** The values sealed for one run's run.requested event, bound to its company, agent and run. */
    public Map<String, String> sealForDispatch(UUID companyId, UUID agentId, UUID runId, Map<String, String> plain) {
        return dispatch.seal(companyId, agentId, runId, plain);
    }

    /** run-service's MAC of a remote run as its worker receives it, for the tag granted to its company. */
    public String issuerMac(RunRequested asTheWorkerGetsIt, String workerTag) {
        return macs.issue(asTheWorkerGetsIt, workerTag);
    }

    private static String context(UUID companyId, String name) {
        return "company:" + companyId + "/secret:" + name;
    }
}
