package io.trimus.adapter.run.secrets;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SandboxMasks;
import io.trimus.events.secrets.TaskMacs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;

/**
 * This service's dispatch key, the one key it needs: it opens a run's sealed secrets and makes (dispatcher) or checks
 * (worker) the MACs of remote tasks. A dispatcher takes TRIMUS_DISPATCH_KEY or derives it from TRIMUS_ENCRYPTION_KEY;
 * a worker takes TRIMUS_DISPATCH_KEY only and never reads TRIMUS_ENCRYPTION_KEY, from which the key of the secrets
 * stored at rest is derived. A worker without a dispatch key could not tell run-service's tasks from forged ones, so
 * it does not start.
 */
@ApplicationScoped
public class DispatchKeys {
    private static final Logger LOG = Logger.getLogger(DispatchKeys.class);

    private final Optional<DispatchKey> key;

    @Inject
    public DispatchKeys(TrimusConfig config) {
        Optional<String> dispatchKey = config.dispatchKey();
        Optional<String> encryptionKey = config.encryptionKey();
        boolean worker = !config.worker().tags().orElse(List.of()).stream().allMatch(String::isBlank);
        if (!worker) {
            this.key = DispatchKey.configured(dispatchKey, encryptionKey);
            return;
        }
        if (encryptionKey.filter(k -> !k.isBlank()).isPresent()) {
            LOG.warnf("%s is set on this worker and ignored: a worker needs only %s; remove the master key from"
                    + " this host, it protects every company's stored secrets", EncryptionKey.ENV, DispatchKey.ENV);
        }
        if (dispatchKey.filter(k -> !k.isBlank()).isEmpty()) {
            throw new IllegalArgumentException(DispatchKey.ENV + " is not set: a worker needs run-service's dispatch"
                    + " key to check that a task was issued by run-service (./trimus worker sets it; see"
                    + " docs/remote-workers.md)");
        }
        this.key = Optional.of(DispatchKey.parse(dispatchKey.get()));
    }

    /** Opens and seals run secrets; empty without a key. */
    public Optional<DispatchSecrets> secrets() {
        return key.map(DispatchSecrets::new);
    }

    /** Seals a sandbox's masked secrets for its registration with egress-service; empty without a key. */
    public Optional<SandboxMasks> masks() {
        return key.map(SandboxMasks::new);
    }

    /** Makes and checks remote tasks' MACs; empty without a key. */
    public Optional<TaskMacs> macs() {
        return key.map(TaskMacs::new);
    }
}
