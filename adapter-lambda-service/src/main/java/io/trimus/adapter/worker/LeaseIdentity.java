package io.trimus.adapter.worker;

import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.lease.InstanceName;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Names this process's lease holder: its worker id when it is a worker, its docker instance otherwise. */
public class LeaseIdentity {

    @Produces
    @Singleton
    InstanceName instanceName(TrimusConfig config, WorkerIdentity worker) {
        return InstanceName.startOf(worker.isWorker() ? worker.id() : DockerDefaults.instanceOf(config.docker()));
    }
}
