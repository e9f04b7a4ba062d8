package io.trimus.adapter.lease;

import java.util.UUID;

/**
 * This process's name in its leases and on the status events it sends: the worker id of a worker, otherwise
 * TRIMUS_DOCKER_INSTANCE (the name its containers carry), with a suffix of its own. The suffix makes each start of
 * the process a new lease holder: one restarted under the same name does not renew its predecessor's lease, so the
 * runs its predecessor held are recovered. Produced by {@code worker.LeaseIdentity}.
 */
public final class InstanceName {

    private final String name;

    public InstanceName(String name) {
        this.name = name;
    }

    /** A new holder's name for a process called {@code base}. */
    public static InstanceName startOf(String base) {
        return new InstanceName(base + "-" + UUID.randomUUID().toString().substring(0, 6));
    }

    public String get() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
