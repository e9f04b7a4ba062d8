package io.trimus.events.secrets;

import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The contract for secrets inside {@code run.requested}: each value sealed under a key derived from the
 * {@link DispatchKey} for this purpose only, bound to the company, the agent, the run and the variable name, base64 on
 * the wire. Kafka and the outbox table only ever hold ciphertext; the adapter service or the worker opens the values
 * just before it starts the run, and a value moved to another run, agent or company does not open.
 */
public final class DispatchSecrets {
    private static final String PURPOSE = "dispatch-secrets/v2";

    private final SecretBox box;

    public DispatchSecrets(DispatchKey key) {
        this.box = new SecretBox(key.derive(PURPOSE, "AES"));
    }

    /** Seals each {@code NAME → value} for this run of this agent of this company. */
    public Map<String, String> seal(UUID companyId, UUID agentId, UUID runId, Map<String, String> plain) {
        Map<String, String> sealed = new LinkedHashMap<>();
        plain.forEach((name, value) -> sealed.put(name, Base64.getEncoder()
                .encodeToString(box.seal(value, context(companyId, agentId, runId, name)))));
        return Collections.unmodifiableMap(sealed);
    }

    /**
     * Opens the sealed values of this run.
     *
     * @throws SecretBox.WrongKeyException when a value was sealed under another key or for another company, agent,
     *                                     run or name
     */
    public Map<String, String> open(UUID companyId, UUID agentId, UUID runId, Map<String, String> sealed) {
        Map<String, String> plain = new LinkedHashMap<>();
        sealed.forEach((name, value) -> {
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(value);
            } catch (IllegalArgumentException e) {
                throw new SecretBox.WrongKeyException();
            }
            plain.put(name, box.open(bytes, context(companyId, agentId, runId, name)));
        });
        return Collections.unmodifiableMap(plain);
    }

    private static String context(UUID companyId, UUID agentId, UUID runId, String name) {
        return "company:" + companyId + "/agent:" + agentId + "/run:" + runId + "/env:" + name;
    }
}
