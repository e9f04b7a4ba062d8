package io.trimus.adapter.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.trimus.events.adapter.LocalAdaptersGate;

import java.util.List;
import java.util.Optional;

/**
 * Every knob of the adapter service. Environment names follow the Trimus operator docs: Quarkus maps
 * {@code TRIMUS_DOCKER_PIDS_LIMIT} onto {@code trimus.docker.pids-limit}, and so on.
 */
@ConfigMapping(prefix = "trimus")
public interface TrimusConfig {

    /** The docker adapter: where the engine is and the limits a container gets unless its agent sets them. */
    DockerConfig docker();

    /** What the adapter keeps of a run. */
    RunConfig run();

    /** Fair shares: how many of this service's slots (docker, lambda, A2A) one company's runs may hold. */
    CompanyConfig company();

    /** The egress network sandboxes join and the egress-service they are registered with (DESIGN.md §6). */
    EgressConfig egress();

    /** claude_sandbox / codex_sandbox: the CLI images and the limits their containers get. */
    SandboxConfig sandbox();

    /** claude_local / codex_local: host processes. */
    LocalConfig local();

    /** lambda: one HTTP call per run, behind the SSRF guard. */
    LambdaConfig lambda();

    /** remote, dispatching side: runs handed to tagged workers on trimus.remote.tasks. */
    RemoteConfig remote();

    /** remote runs delegated to an A2A peer (adapter_config.a2a): the guard and limits of the calls to peers. */
    A2aConfig a2a();

    /** Worker mode: this process claims remote runs of its tags and executes them with its own adapters. */
    WorkerConfig worker();

    /** Leases on the runs this process holds (topic trimus.adapter.leases; properties trimus.adapter-lease.*). */
    @WithName("adapter-lease")
    LeaseConfig lease();

    /** Stopping on SIGTERM: how long the stop may wait for what is away (docs/scaling.md, "Stopping"). */
    ShutdownConfig shutdown();

    /**
     * run-service's master key, from which this service derives its dispatch key to open a run's secrets and to
     * authenticate remote tasks; a worker ignores it (TRIMUS_ENCRYPTION_KEY, no default: without it or
     * TRIMUS_DISPATCH_KEY a run that carries secrets, and every remote run, is REJECTED with the reason).
     */
    Optional<String> encryptionKey();

    /**
     * The dispatch key alone, 64 hex digits or base64, derived from run-service's TRIMUS_ENCRYPTION_KEY: it opens run
     * secrets and makes or checks remote tasks' MACs, but never the secrets stored at rest. Required on a worker,
     * which is given this key only; on the dispatching service it may replace TRIMUS_ENCRYPTION_KEY (and must match
     * it when both are set) (TRIMUS_DISPATCH_KEY, no default).
     */
    Optional<String> dispatchKey();

    /**
     * Truthy (1, true, yes, on) drops {@code --dangerously-skip-permissions} (and codex's
     * {@code --dangerously-bypass-approvals-and-sandbox}) even when an agent asks for it, and with it grants that
     * pre-approve every shell command ({@code --allowedTools Bash}, codex's {@code --full-auto}), logging SEC-015 and
     * noting it on the run (TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS, default false).
     */
    @WithDefault("false")
    String forbidDangerousClaudePermissions();

    /**
     * Whether claude_local / codex_local may run: {@code off} (default: their runs are REJECTED), {@code warn} (run,
     * with a deprecation warning per run) or {@code on} (TRIMUS_LOCAL_ADAPTERS).
     */
    @WithDefault("off")
    LocalAdaptersGate localAdapters();

    /**
     * Where host-process agents get their home directories ({@code <home>/agents/<agent_id>}, created 0700)
     * (TRIMUS_HOME, default {@code ~/.trimus}).
     */
    Optional<String> home();

    /**
     * The claude binaries a claude_local agent may run: basenames ({@code claude}) or absolute paths
     * (TRIMUS_CLAUDE_BINARY_ALLOWLIST, comma-separated, default {@code claude}).
     */
    @WithDefault("claude")
    List<String> claudeBinaryAllowlist();

    /** The codex binaries a codex_local agent may run, as above (TRIMUS_CODEX_BINARY_ALLOWLIST, default {@code codex}). */
    @WithDefault("codex")
    List<String> codexBinaryAllowlist();
}
