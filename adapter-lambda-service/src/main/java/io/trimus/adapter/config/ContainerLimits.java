package io.trimus.adapter.config;

import io.trimus.events.adapter.MemorySize;
import io.trimus.events.adapter.ResourceCeilings;

/**
 * How much of the engine one container may hold: the operator's ceilings on what an agent may ask for, and the memory
 * and CPUs a container gets when its agent asks for none, so no container runs unbounded. Checked once at boot.
 *
 * @param ceilings      TRIMUS_DOCKER_MAX_TIMEOUT_SEC, _MAX_PIDS, _MAX_MEMORY, _MAX_CPUS
 * @param defaultMemory TRIMUS_DOCKER_DEFAULT_MEMORY, as the operator wrote it (e.g. {@code 1g})
 * @param defaultCpus   TRIMUS_DOCKER_DEFAULT_CPUS
 */
public record ContainerLimits(ResourceCeilings ceilings, String defaultMemory, double defaultCpus) {

    /** The limits when the operator sets none: the default ceilings, 1g and 1 CPU. */
    public static final ContainerLimits DEFAULTS = new ContainerLimits(ResourceCeilings.DEFAULTS, "1g", 1.0);

    public ContainerLimits {
        if (ceilings == null) {
            throw new IllegalArgumentException("the TRIMUS_DOCKER_MAX_* ceilings are required");
        }
        long memory;
        try {
            memory = MemorySize.parseBytes(defaultMemory);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_DEFAULT_MEMORY " + e.getMessage() + ", got '"
                    + defaultMemory + "'");
        }
        if (memory > ceilings.maxMemoryBytes()) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_DEFAULT_MEMORY (" + defaultMemory + ") is above"
                    + " TRIMUS_DOCKER_MAX_MEMORY (" + ceilings.maxMemory() + "); lower the default too");
        }
        if (!(defaultCpus >= 0.01) || defaultCpus > ceilings.maxCpus()) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_DEFAULT_CPUS must be at least 0.01 and at most"
                    + " TRIMUS_DOCKER_MAX_CPUS (" + ceilings.maxCpus() + "), got " + defaultCpus);
        }
        defaultMemory = defaultMemory.trim();
    }

    /** The limits configured for this service. */
    public static ContainerLimits from(DockerConfig config) {
        return new ContainerLimits(config.ceilings(), config.defaultMemory(), config.defaultCpus());
    }

    /** The default memory limit in bytes. */
    public long defaultMemoryBytes() {
        return MemorySize.parseBytes(defaultMemory);
    }

    /**
     * Refuses a default that an agent could not ask for itself, so an agent that sets nothing never gets more than
     * one that asks.
     *
     * @throws IllegalArgumentException naming both variables
     */
    public void checkDefaults(String pidsVariable, long pidsLimit, String timeoutVariable, int timeoutSec) {
        if (pidsLimit > ceilings.maxPids()) {
            throw new IllegalArgumentException(pidsVariable + " (" + pidsLimit + ") is above TRIMUS_DOCKER_MAX_PIDS ("
                    + ceilings.maxPids() + "); lower the default too");
        }
        if (timeoutSec > ceilings.maxTimeoutSec()) {
            throw new IllegalArgumentException(timeoutVariable + " (" + timeoutSec + ") is above"
                    + " TRIMUS_DOCKER_MAX_TIMEOUT_SEC (" + ceilings.maxTimeoutSec() + "); lower the default too");
        }
    }
}
