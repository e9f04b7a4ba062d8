package io.trimus.run;

import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.TaskMacs;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Map;
import java.util.UUID;

/** A run's sealed secrets and issuer MAC, checked the way an adapter service or a worker checks them. */
final class Sealed {
    private Sealed() {
    }

    /** The test's TRIMUS_ENCRYPTION_KEY, as run-service reads it. */
    static EncryptionKey key() {
        return EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key", String.class));
    }

    /** The dispatch secrets of the test's key: what a worker holds. */
    static DispatchSecrets dispatch() {
        return new DispatchSecrets(key().dispatchKey());
    }

    /** The MACs of the test's key: what a worker checks a task with. */
    static TaskMacs macs() {
        return new TaskMacs(key().dispatchKey());
    }

    /** Opens values sealed for this run of this agent of this company. */
    static Map<String, String> open(String company, String agent, String run, Map<String, String> sealed) {
        return dispatch().open(UUID.fromString(company), UUID.fromString(agent), UUID.fromString(run), sealed);
    }
}
