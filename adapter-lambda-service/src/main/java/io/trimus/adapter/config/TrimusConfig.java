package io.trimus.adapter.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.trimus.events.adapter.LocalAdaptersGate;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Every knob of the adapter service. Environment names follow the Trimus operator docs: Quarkus maps
 * {@code TRIMUS_DOCKER_PIDS_LIMIT} onto {@code trimus.docker.pids-limit}, and so on.
 */
@ConfigMapping(prefix = "trimus")
public interface TrimusConfig {

    /** The docker adapter: where the engine is and the limits a container gets unless its agent sets them. */
    Docker docker();

    /** What the adapter keeps of a run. */
    Run run();

    /** Fair shares: how many of this service's slots (docker, lambda, A2A) one company's runs may hold. */
    Company company();

    /** The egress network sandboxes join and the egress-service they are registered with (DESIGN.md §6). */
    Egress egress();

    /** claude_sandbox / codex_sandbox: the CLI images and the limits their containers get. */
    Sandbox sandbox();

    /** claude_local / codex_local: host processes. */
    Local local();

    /** lambda: one HTTP call per run, behind the SSRF guard. */
    Lambda lambda();

    /** remote, dispatching side: runs handed to tagged workers on trimus.remote.tasks. */
    Remote remote();

    /** remote runs delegated to an A2A peer (adapter_config.a2a): the guard and limits of the calls to peers. */
    A2a a2a();

    /** Worker mode: this process claims remote runs of its tags and executes them with its own adapters. */
    Worker worker();

    /** Leases on the runs this process holds (topic trimus.adapter.leases; properties trimus.adapter-lease.*). */
    @WithName("adapter-lease")
    Lease lease();

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

    /** Knobs of the sandboxed CLI adapters. */
    interface Sandbox {
        /** Process limit per CLI container unless the agent sets pids_limit (TRIMUS_SANDBOX_PIDS_LIMIT, default 100). */
        @WithDefault("100")
        long pidsLimit();

        /** Image of claude_sandbox agents that name none (TRIMUS_SANDBOX_CLAUDE_IMAGE, default trimus/claude-sandbox:latest). */
        @WithDefault("trimus/claude-sandbox:latest")
        String claudeImage();

        /** Image of codex_sandbox agents that name none (TRIMUS_SANDBOX_CODEX_IMAGE, default trimus/codex-sandbox:latest). */
        @WithDefault("trimus/codex-sandbox:latest")
        String codexImage();

        /** Size of the writable {@code /workspace} tmpfs the CLI works in (TRIMUS_SANDBOX_WORKSPACE_SIZE, default 256m). */
        @WithDefault("256m")
        String workspaceSize();

        /** Wall-clock limit of a CLI run whose agent sets no timeout_sec (TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC, default 1800). */
        @WithDefault("1800")
        int defaultTimeoutSec();
    }

    /** Knobs of the host-process CLI adapters. */
    interface Local {
        /**
         * Variables of the service's environment a host-process CLI does not inherit; an entry ending in {@code *} is a
         * prefix (TRIMUS_LOCAL_ENV_STRIP, comma-separated, default DATABASE_URL,TRIMUS_ENCRYPTION_KEY,
         * TRIMUS_DISPATCH_KEY,TRIMUS_DB_*,QUARKUS_DATASOURCE_*).
         */
        @WithDefault("DATABASE_URL,TRIMUS_ENCRYPTION_KEY,TRIMUS_DISPATCH_KEY,TRIMUS_DB_*,QUARKUS_DATASOURCE_*")
        List<String> envStrip();

        /** Host-process runs executed at the same time (TRIMUS_LOCAL_MAX_CONCURRENT_RUNS, default 2). */
        @WithDefault("2")
        int maxConcurrentRuns();

        /** Wall-clock limit of a run whose agent sets no timeout_sec (TRIMUS_LOCAL_DEFAULT_TIMEOUT_SEC, default 1800). */
        @WithDefault("1800")
        int defaultTimeoutSec();

        /** Between SIGTERM and SIGKILL of a timed-out or cancelled process tree (TRIMUS_LOCAL_KILL_GRACE, default 5s). */
        @WithDefault("5s")
        Duration killGrace();
    }

    /** Knobs of the lambda adapter. */
    interface Lambda {
        /**
         * Address ranges a lambda endpoint may resolve to although they are not public (loopback, private, link-local,
         * CGNAT…), e.g. {@code 10.20.0.0/16,fd00:1::/64}; a bare address means that address alone
         * (TRIMUS_LAMBDA_ALLOW_PRIVATE, comma-separated CIDRs, default none: public unicast only).
         */
        Optional<List<String>> allowPrivate();

        /**
         * Bytes of an endpoint's answer read at most; a longer one is cut off and the run fails
         * (TRIMUS_LAMBDA_MAX_RESPONSE_BYTES, default 1048576).
         */
        @WithDefault("1048576")
        int maxResponseBytes();

        /** Lambda calls in flight at the same time; further runs wait in order (TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS, default 16). */
        @WithDefault("16")
        int maxConcurrentRuns();
    }

    /** Knobs of remote runs delegated to A2A peers. */
    interface A2a {
        /**
         * Address ranges an A2A peer may resolve to although they are not public (loopback, private, link-local…),
         * e.g. {@code 10.20.0.0/16}; a bare address means that address alone. Separate from TRIMUS_LAMBDA_ALLOW_PRIVATE,
         * so a peer Trimus inside the network can be allowed without opening lambda to it (TRIMUS_A2A_ALLOW_PRIVATE,
         * comma-separated CIDRs, default none: public unicast only).
         */
        Optional<List<String>> allowPrivate();

        /**
         * Bytes of one answer of a peer read at most (the agent card, a JSON-RPC answer, one event of a stream); past
         * it the connection is reset and the run fails (TRIMUS_A2A_MAX_RESPONSE_BYTES, default 1048576).
         */
        @WithDefault("1048576")
        int maxResponseBytes();

        /**
         * Bytes of one event stream read at most, all its events together; past it the stream is reset and the run
         * fails (TRIMUS_A2A_MAX_STREAM_BYTES, default 16777216).
         */
        @WithDefault("16777216")
        long maxStreamBytes();

        /** How often a peer that does not stream is asked for its task (tasks/get) (TRIMUS_A2A_POLL_INTERVAL, default 1s). */
        @WithDefault("1s")
        Duration pollInterval();

        /** Runs exchanging with peers at the same time; further runs wait in order (TRIMUS_A2A_MAX_CONCURRENT_RUNS, default 64). */
        @WithDefault("64")
        int maxConcurrentRuns();
    }

    /** Knobs of the remote adapter's dispatching side. */
    interface Remote {
        /**
         * How long a remote run may wait for a worker of its tag to claim it; then it fails with the reason, and no
         * worker starts it any more (TRIMUS_REMOTE_CLAIM_TIMEOUT, default 60s).
         */
        @WithDefault("60s")
        Duration claimTimeout();

        /**
         * How often the dispatcher looks for remote runs past their claim timeout or whose worker stopped beating
         * (TRIMUS_REMOTE_WATCH_INTERVAL, default 1s).
         */
        @WithDefault("1s")
        Duration watchInterval();

        /**
         * Partitions of trimus.remote.tasks, which the dispatcher and the workers create it with (or raise it to) when
         * the broker lets them: tasks are keyed by run id, so a tag's tasks spread over this many partitions and a
         * tag's workers each own some; more workers of one tag than partitions stand idle
         * (TRIMUS_REMOTE_TASK_PARTITIONS, default 12).
         */
        @WithDefault("12")
        int taskPartitions();
    }

    /**
     * Worker mode. With tags set this process is a worker: it claims the remote runs of its tags, runs them with its
     * own adapters and gates, and no longer takes runs from trimus.run.requested (that is the dispatcher's job).
     */
    interface Worker {
        /**
         * The tags this worker claims remote runs of, e.g. {@code gpu,eu}; unset means this process is no worker
         * (TRIMUS_WORKER_TAGS, comma-separated, default none).
         */
        Optional<List<String>> tags();

        /** This worker's name in heartbeats and GET /api/workers (TRIMUS_WORKER_ID, default host name and a random suffix). */
        Optional<String> id();

        /**
         * How often the worker says it is alive; after three missed beats its runs fail as "worker lost"
         * (TRIMUS_WORKER_HEARTBEAT_INTERVAL, default 5s).
         */
        @WithDefault("5s")
        Duration heartbeatInterval();

        /**
         * Remote runs this worker holds at once (claimed and not yet ended, over all its tags). A worker at this
         * limit claims nothing more: it hands the tasks of its partitions back to the other workers of the tag and
         * takes new ones once a run ends (TRIMUS_WORKER_MAX_CONCURRENT_RUNS, default 4).
         */
        @WithDefault("4")
        int maxConcurrentRuns();
    }

    /** How this process renews its lease on the runs it holds, which run-service uses to recover them if it is lost. */
    interface Lease {
        /**
         * How often this process says which runs it holds; run-service counts it lost after three missed beats and
         * recovers its runs (TRIMUS_ADAPTER_LEASE_INTERVAL, default 2s). Keep it well under the consumer session
         * timeout (10 s), so a lost process's beats are read before its run requests go to another.
         */
        @WithDefault("2s")
        Duration interval();

        /**
         * How long a run waits for the broker to acknowledge the beat that lists it as started; without that
         * acknowledgement the run is not started and ends FAILED (TRIMUS_ADAPTER_LEASE_START_TIMEOUT, default 10s).
         */
        @WithDefault("10s")
        Duration startTimeout();
    }

    /** Knobs of the docker adapter. */
    interface Docker {
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
         * The Docker networks a docker agent may join (adapter_config.network), checked when an agent is created
         * (run-service reads the same variable) and again before a run starts. {@code host}, {@code bridge},
         * {@code default} and {@code container:<id>} are refused even when listed; a listed network other than
         * {@code none} must be internal with inter-container traffic off and carry no container but Trimus runs (the
         * egress network may also carry the resolver), or runs on it are REJECTED (TRIMUS_DOCKER_ALLOWED_NETWORKS,
         * comma-separated, default {@code none} and the egress network, TRIMUS_EGRESS_NETWORK_NAME).
         */
        @WithDefault("none,${trimus.egress.network.name:trimus-egress-allowlist}")
        List<String> allowedNetworks();

        /**
         * Whether an agent may ask to run as root (adapter_config.user with uid 0); without it such an agent is refused
         * at creation and its runs are REJECTED. Containers run as the agent's user, else the image's USER when it is
         * not root, else 65534:65534 (TRIMUS_DOCKER_ALLOW_ROOT, default false).
         */
        @WithDefault("false")
        boolean allowRoot();

        /**
         * Longest adapter_config.timeout_sec a docker or *_sandbox agent may ask for; a run asking more is REJECTED
         * (run-service refuses such an agent with 400). TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC and
         * TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC may not exceed it (TRIMUS_DOCKER_MAX_TIMEOUT_SEC, 10 to 86400, default 3600).
         */
        @WithDefault("3600")
        int maxTimeoutSec();

        /**
         * Highest adapter_config.pids_limit a container agent may ask for, else REJECTED; the default pids limits may
         * not exceed it (TRIMUS_DOCKER_MAX_PIDS, default 1024).
         */
        @WithDefault("1024")
        long maxPids();

        /**
         * Largest adapter_config.memory a container agent may ask for, else REJECTED; TRIMUS_DOCKER_DEFAULT_MEMORY may
         * not exceed it (TRIMUS_DOCKER_MAX_MEMORY, default 4g).
         */
        @WithDefault("4g")
        String maxMemory();

        /**
         * Most adapter_config.cpus a container agent may ask for, else REJECTED; TRIMUS_DOCKER_DEFAULT_CPUS may not
         * exceed it (TRIMUS_DOCKER_MAX_CPUS, default 2).
         */
        @WithDefault("2")
        double maxCpus();

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
         * This adapter service's name among those sharing one Docker engine and in its leases: its containers carry
         * it, and at boot it removes only its own leftovers, never another instance's running containers
         * (TRIMUS_DOCKER_INSTANCE, default the host name, {@code adapter} where none is set; replicas must not share
         * one).
         */
        Optional<String> instance();
    }

    /** Fair shares between the companies whose runs share this service's slots (docker, lambda, A2A). */
    interface Company {
        /**
         * Container runs (docker, claude_sandbox, codex_sandbox) of one company executed or queued for a slot at the
         * same time; its further runs wait in order, still DISPATCHED and cancellable, and start as the company's own
         * runs end, while other companies' runs go ahead (TRIMUS_COMPANY_MAX_CONCURRENT_RUNS, default half of
         * TRIMUS_DOCKER_MAX_CONCURRENT_RUNS rounded down, at least 1).
         */
        Optional<Integer> maxConcurrentRuns();

        /**
         * Lambda calls of one company in flight or queued for a slot at the same time; its further calls wait in order,
         * still DISPATCHED and cancellable (timeout_ms counts from when a call leaves the queue), while other
         * companies' calls go ahead, so one company's slow endpoint cannot hold every slot
         * (TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS, default half of TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS rounded down,
         * at least 1).
         */
        Optional<Integer> maxConcurrentLambdaRuns();

        /**
         * Runs of one company exchanging with A2A peers or queued for a slot at the same time; its further runs wait in
         * order, still DISPATCHED and cancellable (timeout_ms counts from when a run leaves the queue), while other
         * companies' runs go ahead, so one company's peer that holds its calls open cannot take every slot
         * (TRIMUS_COMPANY_MAX_CONCURRENT_A2A_RUNS, default half of TRIMUS_A2A_MAX_CONCURRENT_RUNS rounded down, at
         * least 1).
         */
        Optional<Integer> maxConcurrentA2aRuns();
    }

    /** What the adapter keeps of a run. */
    interface Run {
        /**
         * Bytes of combined stdout+stderr kept per run, counted from the end (TRIMUS_RUN_OUTPUT_MAX_BYTES,
         * default 65536).
         */
        @WithDefault("65536")
        int outputMaxBytes();
    }

    /** The egress network sandboxes join and the egress-service they are registered with (DESIGN.md §6). */
    interface Egress {
        /** The Docker network the adapter ensures at boot. */
        Network network();

        /**
         * The DNS server written into every container on the egress network, i.e. the Trimus resolver
         * (TRIMUS_EGRESS_DNS_DEFAULT, default: the egress network's gateway).
         */
        Optional<String> dnsDefault();

        /**
         * Base URL of egress-service, which must know a sandbox's address before the sandbox starts
         * (TRIMUS_EGRESS_SERVICE_URL, default {@code http://127.0.0.1:8083}).
         */
        @WithDefault("http://127.0.0.1:8083")
        URI serviceUrl();

        /**
         * The credential sandbox registrations present to egress-service when this service holds no
         * TRIMUS_ENCRYPTION_KEY (a worker whose sandboxes join an egress network): {@code ./trimus service-credential}
         * prints it (TRIMUS_EGRESS_SERVICE_CREDENTIAL, default: derived from TRIMUS_ENCRYPTION_KEY, else none).
         */
        Optional<String> serviceCredential();

        /**
         * How long registering or deregistering a sandbox with egress-service may take, connect included; past it
         * the run fails and its container never starts (TRIMUS_EGRESS_REGISTRATION_TIMEOUT, default 5s).
         */
        @WithDefault("5s")
        Duration registrationTimeout();

        /**
         * Where the adapter asks the resolver a probe question before each sandbox starts, {@code host:port}; a
         * sandbox whose resolver does not answer never starts (TRIMUS_EGRESS_RESOLVER_CHECK_ADDR, default: the
         * DNS address above, port 53).
         */
        Optional<String> resolverCheckAddr();

        /**
         * Port of egress-service's explicit HTTP proxy on the resolver's address; every container on the egress
         * network gets HTTPS_PROXY / HTTP_PROXY pointing there (TRIMUS_EGRESS_PROXY_PORT, default 3128).
         */
        @WithDefault("3128")
        int proxyPort();

        /**
         * Where the adapter sends the proxy check before each sandbox starts, {@code host:port}; a sandbox whose proxy
         * does not answer never starts (TRIMUS_EGRESS_PROXY_CHECK_ADDR, default: the DNS address above, the proxy
         * port).
         */
        Optional<String> proxyCheckAddr();

        /**
         * How long a sandbox run waits for the resolver, the proxy and the sandbox registry of egress-service to
         * answer (e.g. while egress-service is still starting) before it fails with the last reason
         * (TRIMUS_EGRESS_READY_TIMEOUT, default 30s).
         */
        @WithDefault("30s")
        Duration readyTimeout();

        /**
         * How often the registration of a sandbox holding masked secrets is sent to egress-service again while the
         * run lives, so an egress-service that restarted (it keeps the masks in memory only) has them back within
         * this period (TRIMUS_EGRESS_MASKS_REFRESH, default 5s).
         */
        @WithDefault("5s")
        Duration masksRefresh();
    }

    /** The egress network: created at boot when missing, never altered or deleted when it is not Trimus's own. */
    interface Network {
        /** Name of the egress network (TRIMUS_EGRESS_NETWORK_NAME, default trimus-egress-allowlist). */
        @WithDefault("trimus-egress-allowlist")
        String name();

        /** IPv4 subnet of the egress network, sandbox addresses included (TRIMUS_EGRESS_NETWORK_SUBNET, default 172.30.0.0/24). */
        @WithDefault("172.30.0.0/24")
        String subnet();

        /**
         * Gateway of the egress network: the host's address on it, where the Trimus resolver listens
         * (TRIMUS_EGRESS_NETWORK_GATEWAY, default 172.30.0.1).
         */
        @WithDefault("172.30.0.1")
        String gateway();

        /**
         * Linux name of the network's bridge, fixed so host firewall rules can name it; at most 15 characters
         * (TRIMUS_EGRESS_NETWORK_BRIDGE_NAME, default trimus-egress0).
         */
        @WithDefault("trimus-egress0")
        String bridgeName();
    }

    /** Stopping on SIGTERM: how long the stop may wait for what is away (docs/scaling.md, "Stopping"). */
    Shutdown shutdown();

    /** The bounds of a stop. */
    interface Shutdown {
        /**
         * How long closing one Kafka client may wait for records not yet sent and for leaving its consumer group; a
         * stop waits at most twice this per producer, so a service whose broker is gone still ends within seconds
         * (TRIMUS_SHUTDOWN_KAFKA_CLOSE_TIMEOUT, default 1s).
         */
        @WithDefault("1s")
        Duration kafkaCloseTimeout();

        /**
         * How long each Kafka consumer pauses at a stop before it commits what was processed and closes, one consumer
         * after the other; sets the connector's poll timeout to half of it (TRIMUS_SHUTDOWN_KAFKA_CONSUMER_GRACE,
         * default 500ms).
         */
        @WithDefault("500ms")
        Duration kafkaConsumerGrace();
    }
}
