package io.trimus.adapter.lease;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.worker.WorkerIdentity;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * This process's name in its leases and on the status events it sends: the worker id of a worker, otherwise
 * TRIMUS_DOCKER_INSTANCE (the name its containers carry).
 */
@Singleton
public class InstanceName {

    private final String name;

    @Inject
    public InstanceName(TrimusConfig config, WorkerIdentity worker) {
        this(worker.isWorker() ? worker.id() : config.docker().instance());
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
