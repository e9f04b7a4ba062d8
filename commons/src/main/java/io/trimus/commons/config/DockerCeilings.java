package io.trimus.commons.config;

import io.smallrye.config.WithDefault;
import io.trimus.events.adapter.ResourceCeilings;

/**
 * The most a container agent's adapter_config may ask for: declared once here and extended by the {@code trimus.docker}
 * group of both services that enforce it, so they read the same {@code trimus.docker.max-*} knobs with the same
 * defaults: run-service refuses such an agent with 400, the adapter service checks every run again and REJECTS one
 * that asks for more (the operator may have lowered a ceiling since the agent was created).
 */
public interface DockerCeilings {
    /**
     * Longest adapter_config.timeout_sec a docker or *_sandbox agent may ask for: an agent asking more is refused
     * with 400, a run asking more is REJECTED. TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC and TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC
     * may not exceed it (TRIMUS_DOCKER_MAX_TIMEOUT_SEC, 10 to 86400, default 3600; keep TRIMUS_RUN_STALE_AFTER
     * longer).
     */
    @WithDefault("3600")
    int maxTimeoutSec();

    /**
     * Highest adapter_config.pids_limit a container agent may ask for, else 400 for the agent and REJECTED for its
     * runs; the default pids limits may not exceed it (TRIMUS_DOCKER_MAX_PIDS, default 1024).
     */
    @WithDefault("1024")
    long maxPids();

    /**
     * Largest adapter_config.memory a container agent may ask for, else 400 for the agent and REJECTED for its runs;
     * TRIMUS_DOCKER_DEFAULT_MEMORY may not exceed it (TRIMUS_DOCKER_MAX_MEMORY, default 4g).
     */
    @WithDefault("4g")
    String maxMemory();

    /**
     * Most adapter_config.cpus a container agent may ask for, else 400 for the agent and REJECTED for its runs;
     * TRIMUS_DOCKER_DEFAULT_CPUS may not exceed it (TRIMUS_DOCKER_MAX_CPUS, default 2).
     */
    @WithDefault("2")
    double maxCpus();

    /** The four ceilings as the agent checks take them; a value out of range throws, so a service stops at boot. */
    default ResourceCeilings ceilings() {
        return new ResourceCeilings(maxTimeoutSec(), maxPids(), maxMemory(), maxCpus());
    }
}
