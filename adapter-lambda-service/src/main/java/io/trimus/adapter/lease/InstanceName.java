package io.trimus.adapter.lease;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.worker.WorkerIdentity;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.util.UUID;

/**
 * This process's name in its leases and on the status events it sends: the worker id of a worker, otherwise
 * TRIMUS_DOCKER_INSTANCE (the name its containers carry), with a suffix of its own. The suffix makes each start of
 * the process a new lease holder: one restarted under the same name does not renew its predecessor's lease, so the
 * runs its predecessor held are recovered.
 */
@Singleton
public class InstanceName {

    private final String name;

    @Inject
    public InstanceName(TrimusConfig config, WorkerIdentity worker) {
        this((worker.isWorker() ? worker.id() : config.docker().instance()) + "-"
                + UUID.randomUUID().toString().substring(0, 6));
    }

    public InstanceName(String name) {
        this.name = name;
    }

    public String get() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
