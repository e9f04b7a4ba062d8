package io.trimus.adapter.support;

import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.TaskMacs;
import org.eclipse.microprofile.config.ConfigProvider;

/** The keys of the test's run-service: TRIMUS_ENCRYPTION_KEY as surefire sets it, and the dispatch key workers get. */
public final class Keys {
    private Keys() {
    }

    /** The dispatch key derived from the test's TRIMUS_ENCRYPTION_KEY, as run-service derives it. */
    public static DispatchKey dispatchKey() {
        return EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key", String.class))
                .dispatchKey();
    }

    /** The MACs run-service and a dispatcher make, under the test's dispatch key. */
    public static TaskMacs macs() {
        return new TaskMacs(dispatchKey());
    }
}
