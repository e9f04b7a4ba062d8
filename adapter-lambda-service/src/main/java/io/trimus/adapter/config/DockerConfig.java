package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;
import io.trimus.commons.config.DockerAllowances;
import io.trimus.commons.config.DockerCeilings;

import java.util.List;
import java.util.Optional;

/**
 * Knobs of the docker adapter; the TRIMUS_DOCKER_MAX_* ceilings ({@link DockerCeilings}) and the allowed networks and
 * root ({@link DockerAllowances}) are shared with run-service.
 */
public interface DockerConfig extends DockerCeilings, DockerAllowances {
    /**
     * Whether this service has a Docker engine for the container adapters (docker, claude_sandbox,
     * codex_sandbox). Off (e.g. on Kubernetes): their runs are REJECTED with the reason, the egress network is
     * not ensured and readiness does not wait for an engine; lambda and remote runs work
     * (TRIMUS_DOCKER_ENABLED, default true).
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * Docker engine endpoint, {@code unix:///path} or {@code tcp://host:port} (TRIMUS_DOCKER_HOST,
     * default {@code unix:///var/run/docker.sock}).
     */
    @WithDefault("unix:///var/run/docker.sock")
    String host();

    /** Process limit per container unless the agent sets pids_limit (TRIMUS_DOCKER_PIDS_LIMIT, default 100). */
    @WithDefault("100")
    long pidsLimit();

    /**
     * Extra {@code --security-opt} entries added to every container after {@code no-new-privileges}, e.g. an
     * AppArmor profile or {@code seccomp=/etc/trimus/seccomp.json} (the file is read at boot and sent inline,
     * as the docker CLI does). Entries that switch confinement off ({@code seccomp=unconfined},
     * {@code apparmor=unconfined}, {@code label=disable}, {@code systempaths=unconfined},
     * {@code no-new-privileges=false}) stop the service at boot (TRIMUS_DOCKER_SECURITY_OPTS, comma-separated,
     * default none).
     */
    Optional<List<String>> securityOpts();

    /**
     * Memory limit (swap pinned to it) of a docker or *_sandbox container whose agent sets no memory
     * (TRIMUS_DOCKER_DEFAULT_MEMORY, default 1g).
     */
    @WithDefault("1g")
    String defaultMemory();

    /** CPU limit of a container whose agent sets no cpus (TRIMUS_DOCKER_DEFAULT_CPUS, default 1). */
    @WithDefault("1")
    double defaultCpus();

    /**
     * Largest log file of a container before the engine rotates it: every container logs with the json-file
     * driver, whatever the engine's default, so its output on disk stays under TRIMUS_DOCKER_LOG_MAX_SIZE times
     * TRIMUS_DOCKER_LOG_MAX_FILE (TRIMUS_DOCKER_LOG_MAX_SIZE, a size like 10m, default 10m).
     */
    @WithDefault("10m")
    String logMaxSize();

    /** Log files kept per container, the current one included (TRIMUS_DOCKER_LOG_MAX_FILE, 1 to 100, default 2). */
    @WithDefault("2")
    int logMaxFile();

    /**
     * Disk a docker agent with {@code "writable": true} may write to its root filesystem, set as the engine's
     * storage quota ({@code --storage-opt size=}); only some storage drivers can enforce one (overlay2 on xfs
     * mounted with pquota, btrfs, zfs, devicemapper) (TRIMUS_DOCKER_WRITABLE_LAYER_SIZE, default 1g).
     */
    @WithDefault("1g")
    String writableLayerSize();

    /**
     * Whether a writable run may go ahead without a size limit when the engine's storage driver cannot enforce
     * TRIMUS_DOCKER_WRITABLE_LAYER_SIZE (overlay2 on ext4, the common case); without it such runs are REJECTED
     * and only read-only roots run (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER, default false).
     */
    @WithDefault("false")
    boolean allowUnboundedWritableLayer();

    /** Size of the writable {@code /tmp} tmpfs on the read-only root (TRIMUS_DOCKER_TMPFS_SIZE, default 64m). */
    @WithDefault("64m")
    String tmpfsSize();

    /**
     * Runs executed at the same time; further runs wait in order (TRIMUS_DOCKER_MAX_CONCURRENT_RUNS, default 4).
     */
    @WithDefault("4")
    int maxConcurrentRuns();

    /** Wall-clock limit of a run whose agent sets no timeout_sec (TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC, default 3600). */
    @WithDefault("3600")
    int defaultTimeoutSec();

    /**
     * Shortest adapter_config.timeout_sec a docker, *_sandbox or *_local run may ask for, checked when the run is
     * dispatched; a run asking less is REJECTED. It may only lower the floor of 10 s that run-service enforces on
     * agents it stores (for test and development setups that publish runs themselves); the default timeouts stay at
     * least 10 s (TRIMUS_DOCKER_MIN_TIMEOUT_SEC, 1 to 10, default 10).
     */
    @WithDefault("10")
    int minTimeoutSec();

    /**
     * This adapter service's name among those sharing one Docker engine and in its leases: its containers carry
     * it, and at boot it removes only its own leftovers, never another instance's running containers
     * (TRIMUS_DOCKER_INSTANCE, default the host name, {@code adapter} where none is set; replicas must not share
     * one).
     */
    Optional<String> instance();
}
