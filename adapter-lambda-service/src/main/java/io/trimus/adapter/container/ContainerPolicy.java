package io.trimus.adapter.container;

import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.egress.SandboxNetwork;
import io.trimus.adapter.run.OutputReader;
import io.trimus.adapter.run.RunContext;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.EgressCa;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AllowedRuntimes;
import io.trimus.events.adapter.ContainerUser;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.events.adapter.EgressProxyEnv;
import io.trimus.events.secrets.Redactor;
import io.trimus.events.secrets.SandboxMask;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The isolation a docker run gets: the seed's contract (DESIGN.md §5), decided once, as data. The runner
 * applies it as it is; tests read it.
 *
 * @param name         deterministic container name, so a second delivery of the same run hits a name conflict
 * @param image        the agent's image, never pulled
 * @param command      argv replacing the image's CMD; empty keeps the image's
 * @param readOnlyRoot {@code --read-only}, unless the agent opted out with {@code "writable": true}
 * @param tmpfs        mounts backing a read-only root: {@code /tmp:rw,exec,nosuid,nodev,size=…} ({@code noexec} on request); empty when writable
 * @param capDrop      capabilities dropped: always {@code ALL}
 * @param securityOpts {@code no-new-privileges} always, then each TRIMUS_DOCKER_SECURITY_OPTS entry
 * @param pidsLimit    the agent's pids_limit, else TRIMUS_DOCKER_PIDS_LIMIT
 * @param memoryBytes  the agent's memory limit, else TRIMUS_DOCKER_DEFAULT_MEMORY
 * @param memorySwapBytes equal to memoryBytes, so the container gets no swap beyond its memory limit
 * @param nanoCpus     the agent's cpus in billionths, else TRIMUS_DOCKER_DEFAULT_CPUS
 * @param network      the agent's network, {@code none} by default
 * @param user         the agent's {@code uid[:gid]}, or null: then the image's USER when it is not root, else
 *                     {@link ContainerUser#DEFAULT} (decided by the runner, which inspects the image)
 * @param env          only the agent's env plus what Trimus injects (on the egress network: the proxy settings, which
 *                     no agent env overrides); nothing of the host
 * @param labels       {@code trimus.company_id}, {@code trimus.agent_id}, {@code trimus.run_id}
 * @param timeout      wall-clock limit; the container is killed when it passes
 * @param sandbox      on the egress network: the pinned address and the resolver; null elsewhere
 * @param secretEnv    names of the env entries that hold company secrets: masked in everything the run reports
 * @param notes        policy decisions reported with RUNNING (e.g. SEC-015)
 * @param entrypoint   argv replacing the image's ENTRYPOINT, so {@link #command} is all that runs; null keeps the
 *                     image's (a docker agent's image is its own choice)
 * @param logOptions   options of the json-file log driver: rotated at TRIMUS_DOCKER_LOG_MAX_SIZE, at most
 *                     TRIMUS_DOCKER_LOG_MAX_FILE files
 * @param writableLayerSize the storage quota of a writable root (TRIMUS_DOCKER_WRITABLE_LAYER_SIZE); null for a
 *                     read-only root, or for a writable one the engine cannot bound where the operator allows that
 * @param masks        the run's masked secrets: the env holds their surrogates, egress-service gets these (sealed)
 *                     with the registration
 * @param caVolume     the Docker volume holding the egress CA files, mounted read-only at {@link EgressCa#DIRECTORY};
 *                     null when the sandbox gets none
 * @param outputReader reads the run's output into its terminal report (an agent CLI's answer and usage);
 *                     {@link OutputReader#NONE} (also for null) leaves the report as the output tail
 * @param runtime      the OCI runtime the container runs under ({@code runc}, {@code runsc}), checked against the
 *                     operator's list and the engine's runtimes; null leaves it to the engine's default
 */
public record ContainerPolicy(String name, String image, List<String> command, boolean readOnlyRoot,
                              Map<String, String> tmpfs, List<String> capDrop, List<String> securityOpts,
                              long pidsLimit, Long memoryBytes, Long memorySwapBytes, Long nanoCpus, String network,
                              String user, Map<String, String> env, Map<String, String> labels, Duration timeout,
                              SandboxNetwork sandbox, Set<String> secretEnv, List<String> notes,
                              List<String> entrypoint, Map<String, String> logOptions, String writableLayerSize,
                              List<SandboxMask> masks, String caVolume, OutputReader outputReader,
                              String runtime) {

    public static final String LABEL_COMPANY = "trimus.company_id";
    public static final String LABEL_AGENT = "trimus.agent_id";
    public static final String LABEL_RUN = SandboxAttachment.LABEL_RUN;
    public static final String LABEL_INSTANCE = "trimus.adapter_instance";
    public static final String NAME_PREFIX = "trimus-run-";
    /** The name prefix of a probe container (an egress canary's sandbox), {@link #forProbe}. */
    public static final String PROBE_NAME_PREFIX = "trimus-canary-";
    /** The user a probe container runs as: never root, whatever its image says. */
    public static final String PROBE_USER = "1000:1000";
    public static final String NO_NEW_PRIVILEGES = DockerDefaults.NO_NEW_PRIVILEGES;

    /**
     * The options of a {@code /tmp} tmpfs: no device files, no setuid; programs may run from it (agents' tools build
     * and run helpers there) unless the agent asks for {@code tmp_noexec}. Docker adds {@code nodev,noexec} to a
     * tmpfs on its own, so every option is written out: the policy says exactly what a container gets.
     */
    public static String tmpOptions(boolean noexec) {
        return noexec ? "rw,nosuid,nodev,noexec" : "rw,exec,nosuid,nodev";
    }

    /** Where a sandboxed CLI works: a tmpfs, like /tmp, since the root is read-only. */
    public static final String WORKSPACE = "/workspace";

    public ContainerPolicy {
        secretEnv = Set.copyOf(secretEnv);
        notes = List.copyOf(notes);
        entrypoint = entrypoint == null ? null : List.copyOf(entrypoint);
        logOptions = Map.copyOf(logOptions);
        masks = List.copyOf(masks);
        outputReader = outputReader == null ? OutputReader.NONE : outputReader;
        if (readOnlyRoot && writableLayerSize != null) {
            throw new IllegalArgumentException("a read-only root has no writable layer to bound");
        }
    }

    /** A policy whose run's output is reported as it is (no {@link OutputReader}). */
    public ContainerPolicy(String name, String image, List<String> command, boolean readOnlyRoot,
                           Map<String, String> tmpfs, List<String> capDrop, List<String> securityOpts,
                           long pidsLimit, Long memoryBytes, Long memorySwapBytes, Long nanoCpus, String network,
                           String user, Map<String, String> env, Map<String, String> labels, Duration timeout,
                           SandboxNetwork sandbox, Set<String> secretEnv, List<String> notes,
                           List<String> entrypoint, Map<String, String> logOptions, String writableLayerSize,
                           List<SandboxMask> masks, String caVolume) {
        this(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit, memoryBytes,
                memorySwapBytes, nanoCpus, network, user, env, labels, timeout, sandbox, secretEnv, notes, entrypoint,
                logOptions, writableLayerSize, masks, caVolume, OutputReader.NONE, null);
    }

    /** The policy of one run of a docker agent that takes no company secrets. */
    public static ContainerPolicy forDocker(DockerAdapterConfig agent, DockerDefaults defaults, RunRequested run) {
        return forDocker(agent, defaults, run, SandboxSecrets.plain(Map.of()));
    }

    /**
     * The policy of one run of a docker agent.
     *
     * @param secrets the agent's {@code secret_env} variables with their opened values (surrogates for masked
     *                ones): set in the container and masked in what the run reports
     */
    public static ContainerPolicy forDocker(DockerAdapterConfig agent, DockerDefaults defaults, RunRequested run,
                                            SandboxSecrets secrets) {
        Map<String, String> secretEnv = secrets.env();
        boolean readOnly = !agent.writable();
        Map<String, String> tmpfs = readOnly ? Map.of("/tmp", tmpOptions(agent.tmpNoexec()) + ",size="
                + defaults.tmpfsSize()) : Map.of();
        long pids = agent.pidsLimit() != null ? agent.pidsLimit() : defaults.pidsLimit();
        int timeoutSec = agent.timeoutSec() != null ? agent.timeoutSec() : defaults.timeoutSec();
        long memory = memoryBytes(agent.memoryBytes(), defaults);

        Map<String, String> env = new LinkedHashMap<>(agent.env());
        env.putAll(secretEnv);
        env.putAll(RunContext.env(run));

        return new ContainerPolicy(NAME_PREFIX + run.runId(), agent.image(), agent.command(), readOnly, tmpfs,
                List.of("ALL"), securityOpts(defaults), pids, memory, memory, nanoCpus(cpus(agent.cpus(), defaults)),
                agent.network() == null ? DockerAdapterConfig.NETWORK_NONE : agent.network(),
                agent.user(), Collections.unmodifiableMap(env), labels(run, defaults), Duration.ofSeconds(timeoutSec), null,
                secretEnv.keySet(),
                List.of(), null, defaults.disk().logOptions(), readOnly ? null : defaults.disk().writableLayerSize(),
                secrets.masks(), null);
    }

    /**
     * The policy of a probe container (an egress canary's sandbox): every flag of the docker adapter's hardening, a
     * read-only root with a small /tmp, user 1000:1000, the given small limits, on {@code network}, labelled like a run
     * (so the boot's orphan reaping removes a leftover) under the synthetic request's ids.
     */
    public static ContainerPolicy forProbe(RunRequested probe, String image, List<String> command,
                                           Map<String, String> env, DockerDefaults defaults, String network,
                                           ProbeLimits limits) {
        return new ContainerPolicy(PROBE_NAME_PREFIX + probe.runId(), image, command, true,
                Map.of("/tmp", tmpOptions(true) + ",size=1m"), List.of("ALL"), securityOpts(defaults),
                limits.pids(), limits.memoryBytes(), limits.memoryBytes(), nanoCpus(limits.cpus()), network,
                PROBE_USER, Map.copyOf(env), labels(probe, defaults), limits.timeout(), null, Set.of(),
                List.of(), null, defaults.disk().logOptions(), null, List.of(), null)
                .commandAsEntrypoint();
    }

    /** The small limits of a probe container. */
    public record ProbeLimits(long pids, long memoryBytes, double cpus, Duration timeout) {
    }

    /** The agent's memory limit, else TRIMUS_DOCKER_DEFAULT_MEMORY: no container runs without one. */
    public static long memoryBytes(Long asked, DockerDefaults defaults) {
        return asked != null ? asked : defaults.limits().defaultMemoryBytes();
    }

    /** The agent's cpus, else TRIMUS_DOCKER_DEFAULT_CPUS: no container runs without a CPU quota. */
    public static double cpus(Double asked, DockerDefaults defaults) {
        return asked != null ? asked : defaults.limits().defaultCpus();
    }

    /**
     * This policy for a container on the egress network: it joins the network by name (whatever id prefix the agent
     * used), at the pinned address, with the Trimus resolver, and with the proxy settings pointing at the Trimus egress
     * proxy written over any the agent's env holds. Everything else stays as decided.
     */
    public ContainerPolicy onSandboxNetwork(SandboxNetwork sandbox) {
        Map<String, String> proxied = new LinkedHashMap<>(env);
        proxied.keySet().removeIf(EgressProxyEnv::reserved);
        proxied.putAll(sandbox.proxyEnv());
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, sandbox.network(), user, Collections.unmodifiableMap(proxied),
                labels, timeout, sandbox, secretEnv, notes, entrypoint, logOptions, writableLayerSize, masks,
                caVolume, outputReader, runtime);
    }

    /** This policy with the user the container runs as decided (the image's non-root USER or the default). */
    public ContainerPolicy runningAs(String decidedUser) {
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, network, decidedUser, env, labels, timeout, sandbox, secretEnv,
                notes, entrypoint, logOptions, writableLayerSize, masks, caVolume, outputReader, runtime);
    }

    /**
     * This policy with {@code command} run as the container's whole argv: its first element becomes the ENTRYPOINT,
     * so an image's own ENTRYPOINT can neither wrap nor replace it.
     */
    public ContainerPolicy commandAsEntrypoint() {
        return new ContainerPolicy(name, image, command.subList(1, command.size()), readOnlyRoot, tmpfs, capDrop,
                securityOpts, pidsLimit, memoryBytes, memorySwapBytes, nanoCpus, network, user, env, labels, timeout,
                sandbox, secretEnv, notes, List.of(command.get(0)), logOptions, writableLayerSize, masks, caVolume,
                outputReader, runtime);
    }

    /**
     * This policy with its writable root left unbounded, where the engine's storage driver cannot bound it and the
     * operator allows that (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER); the RUNNING report says so.
     */
    public ContainerPolicy withUnboundedWritableLayer(String note) {
        List<String> noted = new ArrayList<>(notes);
        noted.add(note);
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, network, user, env, labels, timeout, sandbox, secretEnv,
                noted, entrypoint, logOptions, null, masks, caVolume, outputReader, runtime);
    }

    /**
     * The user a container runs as when its agent names none: the image's USER when it names a user other than root,
     * else {@link ContainerUser#DEFAULT}. A named USER is trusted to be what it says: images are the operator's, never
     * pulled on a tenant's behalf.
     */
    public static String defaultUser(String imageUser) {
        return ContainerUser.isRoot(imageUser) ? ContainerUser.DEFAULT : imageUser.trim();
    }


    /**
     * Masks in what the run reports: the values of {@link #secretEnv} as {@code [REDACTED]}, the real value of each
     * masked secret too, and its surrogate as {@code [MASKED:NAME]}.
     */
    public Redactor redactor() {
        if (secretEnv.isEmpty() && masks.isEmpty()) {
            return Redactor.none();
        }
        Set<String> surrogates = masks.stream().map(SandboxMask::surrogate).collect(Collectors.toSet());
        return SandboxSecrets.redactor(secretEnv.stream().map(env::get).filter(v -> !surrogates.contains(v)).toList(),
                masks);
    }

    /**
     * This policy with the egress CA of {@code volume} mounted read-only at {@link EgressCa#DIRECTORY} and the TLS
     * clients' variables pointing at its files, written over anything the agent's env holds.
     */
    public ContainerPolicy withEgressCa(String volume) {
        Map<String, String> withCa = new LinkedHashMap<>(env);
        withCa.keySet().removeIf(EgressCa::reserved);
        EgressCa.EXTRA_CA_ENV.forEach(name -> withCa.put(name, EgressCa.CA_FILE));
        EgressCa.BUNDLE_ENV.forEach(name -> withCa.put(name, EgressCa.BUNDLE_FILE));
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, network, user, Collections.unmodifiableMap(withCa), labels,
                timeout, sandbox, secretEnv, notes, entrypoint, logOptions, writableLayerSize, masks, volume,
                outputReader, runtime);
    }

    /**
     * This policy under the OCI runtime {@code chosen} (already checked against TRIMUS_DOCKER_RUNTIMES); the RUNNING
     * report names it.
     */
    public ContainerPolicy underRuntime(String chosen) {
        List<String> noted = new ArrayList<>(notes);
        noted.add("runtime: " + chosen + (AllowedRuntimes.RUNSC.equals(chosen) ? " (gVisor: the sandbox runs on a kernel"
                + " of its own, not the host's, which answers its system calls in place of the seccomp profile;"
                + " pids_limit " + pidsLimit + " is " + GvisorPids.hostLimit(pidsLimit) + " host threads)" : ""));
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, network, user, env, labels, timeout, sandbox, secretEnv,
                noted, entrypoint, logOptions, writableLayerSize, masks, caVolume, outputReader, chosen);
    }

    /** This policy with the run's output read by {@code reader} for its terminal report. */
    public ContainerPolicy readingOutput(OutputReader reader) {
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, network, user, env, labels, timeout, sandbox, secretEnv,
                notes, entrypoint, logOptions, writableLayerSize, masks, caVolume, reader, runtime);
    }

    /** Never prints env values: they may hold a company's secrets. */
    @Override
    public String toString() {
        return "ContainerPolicy[name=" + name + ", image=" + image + ", network=" + network + ", env names="
                + env.keySet() + ", pidsLimit=" + pidsLimit + ", memoryBytes=" + memoryBytes + ", readOnlyRoot="
                + readOnlyRoot + ", user=" + user + "]";
    }

    /** {@code no-new-privileges} first, then each configured entry once. */
    public static List<String> securityOpts(DockerDefaults defaults) {
        List<String> securityOpts = new ArrayList<>();
        securityOpts.add(NO_NEW_PRIVILEGES);
        defaults.securityOpts().stream().filter(o -> !o.equals(NO_NEW_PRIVILEGES)).forEach(securityOpts::add);
        return List.copyOf(securityOpts);
    }

    /** The labels that tie a container to its run and to this adapter instance. */
    public static Map<String, String> labels(RunRequested run, DockerDefaults defaults) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_INSTANCE, defaults.instance());
        labels.put(LABEL_COMPANY, String.valueOf(run.companyId()));
        labels.put(LABEL_AGENT, String.valueOf(run.agentId()));
        labels.put(LABEL_RUN, String.valueOf(run.runId()));
        return Collections.unmodifiableMap(labels);
    }

    /** Docker's NanoCPUs for a cpus value. */
    public static long nanoCpus(double cpus) {
        return Math.round(cpus * 1_000_000_000d);
    }

    /** The Docker host settings carrying this policy. */
    public HostConfig hostConfig() {
        HostConfig host = HostConfig.newHostConfig()
                .withReadonlyRootfs(readOnlyRoot)
                .withTmpFs(tmpfs.isEmpty() ? null : tmpfs)
                .withCapDrop(capDrop.stream().map(Capability::valueOf).toArray(Capability[]::new))
                .withSecurityOpts(securityOpts)
                .withPidsLimit(AllowedRuntimes.RUNSC.equals(runtime) ? GvisorPids.hostLimit(pidsLimit) : pidsLimit)
                .withMemory(memoryBytes)
                .withMemorySwap(memorySwapBytes)
                .withNanoCPUs(nanoCpus)
                .withNetworkMode(network)
                .withLogConfig(new LogConfig(LogConfig.LoggingType.JSON_FILE, logOptions))
                .withStorageOpt(writableLayerSize == null ? null : Map.of("size", writableLayerSize))
                .withPrivileged(false)
                .withRuntime(runtime);
        if (caVolume != null) {
            host.withMounts(List.of(new Mount().withType(MountType.VOLUME).withSource(caVolume)
                    .withTarget(EgressCa.DIRECTORY).withReadOnly(true)));
        }
        return sandbox == null ? host : host.withDns(sandbox.dns());
    }

    /** The environment as Docker wants it, {@code NAME=value}. */
    public List<String> envList() {
        return env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
    }

    /** The memory limit as a person writes it, e.g. {@code 16m}; null when there is none. */
    public String memoryLimitText() {
        if (memoryBytes == null) {
            return null;
        }
        long b = memoryBytes;
        if (b % (1L << 30) == 0) {
            return (b >> 30) + "g";
        }
        if (b % (1L << 20) == 0) {
            return (b >> 20) + "m";
        }
        if (b % (1L << 10) == 0) {
            return (b >> 10) + "k";
        }
        return b + " bytes";
    }
}
