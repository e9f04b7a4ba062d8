package io.trimus.commons.config;

import io.smallrye.config.WithDefault;

import java.util.List;

/**
 * What the operator allows a container agent to ask for beyond the ceilings: the networks it may join, whether it
 * may run as root and the OCI runtimes (runc, gVisor's runsc) it may run under. Declared once here and extended by the {@code trimus.docker} group of both services that enforce
 * it, so they read the same {@code trimus.docker.*} knobs with the same defaults: run-service refuses such an agent
 * with 400, the adapter service checks every run again and REJECTS one the operator no longer allows.
 */
public interface DockerAllowances {
    /**
     * The Docker networks a docker agent may join (adapter_config.network): an agent naming another is refused with
     * 400, and its runs are checked again before they start. {@code host}, {@code bridge}, {@code default} and
     * {@code container:<id>} are refused even when listed; a listed network other than {@code none} must be internal
     * with inter-container traffic off and carry no container but Trimus runs (the egress network may also carry the
     * resolver), or runs on it are REJECTED (TRIMUS_DOCKER_ALLOWED_NETWORKS, comma-separated, default {@code none}
     * and the egress network, TRIMUS_EGRESS_NETWORK_NAME, default trimus-egress-allowlist).
     */
    @WithDefault("none,${trimus.egress.network.name:trimus-egress-allowlist}")
    List<String> allowedNetworks();

    /**
     * Whether a docker or *_sandbox agent may ask to run as root (adapter_config.user with uid 0); without it such an
     * agent is refused with 400 at creation and its runs are REJECTED. Containers run as the agent's user, else the
     * image's USER when it is not root, else 65534:65534 (TRIMUS_DOCKER_ALLOW_ROOT, default false).
     */
    @WithDefault("false")
    boolean allowRoot();

    /**
     * The OCI runtimes a docker, claude_sandbox or codex_sandbox agent may ask for (adapter_config.runtime), e.g.
     * {@code runc,runsc} for gVisor: an agent naming another is refused with 400 at creation, and each run is checked
     * again, then against the runtimes registered with the Docker engine, before it starts (REJECTED otherwise)
     * (TRIMUS_DOCKER_RUNTIMES, comma-separated, default {@code runc}).
     */
    @WithDefault("runc")
    List<String> runtimes();

    /**
     * The runtime of agents that name none; it must be one of TRIMUS_DOCKER_RUNTIMES, else the service does not
     * start (TRIMUS_DOCKER_DEFAULT_RUNTIME, default {@code runc}).
     */
    @WithDefault("runc")
    String defaultRuntime();
}
