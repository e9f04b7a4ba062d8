package io.trimus.adapter.adapter.docker;

import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.adapter.RunContext;
import io.trimus.adapter.adapter.cli.CliCommand;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.events.secrets.Redactor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The isolation a docker run gets: the seed's contract (DESIGN.md §5), decided once, as data. The runner
 * applies it as it is; tests read it.
 *
 * @param name         deterministic container name, so a second delivery of the same run hits a name conflict
 * @param image        the agent's image, never pulled
 * @param command      argv replacing the image's CMD; empty keeps the image's
 * @param readOnlyRoot {@code --read-only}, unless the agent opted out with {@code "writable": true}
 * @param tmpfs        mounts backing a read-only root: {@code /tmp:rw,nosuid,size=…}; empty when writable
 * @param capDrop      capabilities dropped: always {@code ALL}
 * @param securityOpts {@code no-new-privileges} always, then each TRIMUS_DOCKER_SECURITY_OPTS entry
 * @param pidsLimit    the agent's pids_limit, else TRIMUS_DOCKER_PIDS_LIMIT
 * @param memoryBytes  the agent's memory limit, or null for none
 * @param memorySwapBytes equal to memoryBytes, so the container gets no swap beyond its memory limit
 * @param nanoCpus     the agent's cpus in billionths, or null for none
 * @param network      the agent's network, {@code none} by default
 * @param env          only the agent's env plus what Trimus injects; nothing of the host
 * @param labels       {@code trimus.company_id}, {@code trimus.agent_id}, {@code trimus.run_id}
 * @param timeout      wall-clock limit; the container is killed when it passes
 * @param sandbox      on the egress network: the pinned address and the resolver; null elsewhere
 * @param secretEnv    names of the env entries that hold company secrets: masked in everything the run reports
 * @param notes        policy decisions reported with RUNNING (e.g. SEC-015)
 */
public record ContainerPolicy(String name, String image, List<String> command, boolean readOnlyRoot,
                              Map<String, String> tmpfs, List<String> capDrop, List<String> securityOpts,
                              long pidsLimit, Long memoryBytes, Long memorySwapBytes, Long nanoCpus, String network,
                              Map<String, String> env, Map<String, String> labels, Duration timeout,
                              SandboxNetwork sandbox, Set<String> secretEnv, List<String> notes) {

    public static final String LABEL_COMPANY = "trimus.company_id";
    public static final String LABEL_AGENT = "trimus.agent_id";
    public static final String LABEL_RUN = "trimus.run_id";
    public static final String LABEL_INSTANCE = "trimus.adapter_instance";
    public static final String NAME_PREFIX = "trimus-run-";
    public static final String NO_NEW_PRIVILEGES = "no-new-privileges";

    /** Where a sandboxed CLI works: a tmpfs, like /tmp, since the root is read-only. */
    public static final String WORKSPACE = "/workspace";

    public ContainerPolicy {
        secretEnv = Set.copyOf(secretEnv);
        notes = List.copyOf(notes);
    }

    /** The policy of one run of a docker agent. */
    public static ContainerPolicy forDocker(DockerAdapterConfig agent, Defaults defaults, RunRequested run) {
        boolean readOnly = !agent.writable();
        Map<String, String> tmpfs = readOnly ? Map.of("/tmp", "rw,nosuid,size=" + defaults.tmpfsSize()) : Map.of();
        long pids = agent.pidsLimit() != null ? agent.pidsLimit() : defaults.pidsLimit();
        int timeoutSec = agent.timeoutSec() != null ? agent.timeoutSec() : defaults.timeoutSec();

        Map<String, String> env = new LinkedHashMap<>(agent.env());
        env.putAll(RunContext.env(run));

        return new ContainerPolicy(NAME_PREFIX + run.runId(), agent.image(), agent.command(), readOnly, tmpfs,
                List.of("ALL"), securityOpts(defaults), pids, agent.memoryBytes(), agent.memoryBytes(),
                nanoCpus(agent.cpus()), agent.network() == null ? DockerAdapterConfig.NETWORK_NONE : agent.network(),
                Collections.unmodifiableMap(env), labels(run, defaults), Duration.ofSeconds(timeoutSec), null, Set.of(),
                List.of());
    }

    /**
     * The policy of one run of a claude_sandbox / codex_sandbox agent: the docker adapter's full hardening with a
     * read-only root (only /tmp and /workspace writable), the egress network, TRIMUS_SANDBOX_PIDS_LIMIT, and an
     * environment of exactly the provider key, the run context, HOME=/tmp and IS_SANDBOX=1.
     *
     * @param secrets the opened secrets of the run, by the variable they become
     */
    public static ContainerPolicy forCliSandbox(CliAdapterConfig agent, SandboxDefaults sandbox, Defaults defaults,
                                                String egressNetwork, RunRequested run, CliCommand cli,
                                                Map<String, String> secrets) {
        Map<String, String> tmpfs = new LinkedHashMap<>();
        tmpfs.put("/tmp", "rw,nosuid,nodev,size=" + defaults.tmpfsSize());
        // the image's /workspace belongs to root; the CLI runs as its own user
        tmpfs.put(WORKSPACE, "rw,nosuid,nodev,mode=1777,size=" + sandbox.workspaceSize());
        long pids = agent.pidsLimit() != null ? agent.pidsLimit() : sandbox.pidsLimit();
        int timeoutSec = agent.timeoutSec() != null ? agent.timeoutSec() : sandbox.timeoutSec();

        Map<String, String> env = new LinkedHashMap<>(secrets);
        env.putAll(RunContext.env(run));
        env.put("HOME", "/tmp");
        env.put("IS_SANDBOX", "1");

        return new ContainerPolicy(NAME_PREFIX + run.runId(), agent.image() != null ? agent.image()
                : sandbox.image(agent.cli()), cli.argv(), true, Collections.unmodifiableMap(tmpfs), List.of("ALL"),
                securityOpts(defaults), pids, agent.memoryBytes(), agent.memoryBytes(), nanoCpus(agent.cpus()),
                egressNetwork, Collections.unmodifiableMap(env), labels(run, defaults), Duration.ofSeconds(timeoutSec), null,
                secrets.keySet(), cli.notes());
    }

    /**
     * This policy for a container on the egress network: it joins the network by name (whatever id prefix the agent
     * used), at the pinned address, with the Trimus resolver. Everything else stays as decided.
     */
    public ContainerPolicy onSandboxNetwork(SandboxNetwork sandbox) {
        return new ContainerPolicy(name, image, command, readOnlyRoot, tmpfs, capDrop, securityOpts, pidsLimit,
                memoryBytes, memorySwapBytes, nanoCpus, sandbox.network(), env, labels, timeout, sandbox, secretEnv,
                notes);
    }

    /** Masks the values of {@link #secretEnv} in what the run reports. */
    public Redactor redactor() {
        return secretEnv.isEmpty() ? Redactor.none() : Redactor.of(secretEnv.stream().map(env::get).toList());
    }

    /** Never prints env values: they may hold a company's secrets. */
    @Override
    public String toString() {
        return "ContainerPolicy[name=" + name + ", image=" + image + ", network=" + network + ", env names="
                + env.keySet() + ", pidsLimit=" + pidsLimit + ", memoryBytes=" + memoryBytes + ", readOnlyRoot="
                + readOnlyRoot + "]";
    }

    private static List<String> securityOpts(Defaults defaults) {
        List<String> securityOpts = new ArrayList<>();
        securityOpts.add(NO_NEW_PRIVILEGES);
        defaults.securityOpts().stream().filter(o -> !o.equals(NO_NEW_PRIVILEGES)).forEach(securityOpts::add);
        return List.copyOf(securityOpts);
    }

    private static Map<String, String> labels(RunRequested run, Defaults defaults) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(LABEL_INSTANCE, defaults.instance());
        labels.put(LABEL_COMPANY, String.valueOf(run.companyId()));
        labels.put(LABEL_AGENT, String.valueOf(run.agentId()));
        labels.put(LABEL_RUN, String.valueOf(run.runId()));
        return Collections.unmodifiableMap(labels);
    }

    private static Long nanoCpus(Double cpus) {
        return cpus == null ? null : Math.round(cpus * 1_000_000_000d);
    }

    /** The Docker host settings carrying this policy. */
    public HostConfig hostConfig() {
        HostConfig host = HostConfig.newHostConfig()
                .withReadonlyRootfs(readOnlyRoot)
                .withTmpFs(tmpfs.isEmpty() ? null : tmpfs)
                .withCapDrop(capDrop.stream().map(Capability::valueOf).toArray(Capability[]::new))
                .withSecurityOpts(securityOpts)
                .withPidsLimit(pidsLimit)
                .withMemory(memoryBytes)
                .withMemorySwap(memorySwapBytes)
                .withNanoCPUs(nanoCpus)
                .withNetworkMode(network)
                .withPrivileged(false);
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

    /**
     * The service-wide defaults a policy falls back on, checked once at boot.
     *
     * @param pidsLimit    TRIMUS_DOCKER_PIDS_LIMIT
     * @param tmpfsSize    TRIMUS_DOCKER_TMPFS_SIZE
     * @param securityOpts TRIMUS_DOCKER_SECURITY_OPTS, with {@code seccomp=<file>} already read into the entry
     * @param timeoutSec   TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC
     * @param instance     TRIMUS_DOCKER_INSTANCE, labelled on every container
     */
    public record Defaults(long pidsLimit, String tmpfsSize, List<String> securityOpts, int timeoutSec,
                           String instance) {

        /** The instance name when none is configured. */
        public static final String DEFAULT_INSTANCE = "adapter";

        /** Defaults of the instance named {@value #DEFAULT_INSTANCE}. */
        public Defaults(long pidsLimit, String tmpfsSize, List<String> securityOpts, int timeoutSec) {
            this(pidsLimit, tmpfsSize, securityOpts, timeoutSec, DEFAULT_INSTANCE);
        }

        static final Pattern TMPFS_SIZE = Pattern.compile("[1-9][0-9]{0,15}[kmg]?");

        public Defaults {
            if (pidsLimit <= 0) {
                throw new IllegalArgumentException("TRIMUS_DOCKER_PIDS_LIMIT must be greater than 0, got " + pidsLimit);
            }
            if (tmpfsSize == null || !TMPFS_SIZE.matcher(tmpfsSize.toLowerCase(Locale.ROOT)).matches()) {
                throw new IllegalArgumentException(
                        "TRIMUS_DOCKER_TMPFS_SIZE must be a size like 64m, got '" + tmpfsSize + "'");
            }
            if (timeoutSec < DockerAdapterConfig.MIN_TIMEOUT_SEC) {
                throw new IllegalArgumentException("TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC must be at least "
                        + DockerAdapterConfig.MIN_TIMEOUT_SEC + ", got " + timeoutSec);
            }
            for (String opt : securityOpts) {
                if (opt.replace(':', '=').equalsIgnoreCase(NO_NEW_PRIVILEGES + "=false")) {
                    throw new IllegalArgumentException("TRIMUS_DOCKER_SECURITY_OPTS may not switch off "
                            + NO_NEW_PRIVILEGES + ": the docker adapter promises it for every container");
                }
            }
            if (instance == null || !instance.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}")) {
                throw new IllegalArgumentException("TRIMUS_DOCKER_INSTANCE must be 1-63 letters, digits, '.', '_' or"
                        + " '-', got '" + instance + "'");
            }
            tmpfsSize = tmpfsSize.toLowerCase(Locale.ROOT);
            securityOpts = List.copyOf(securityOpts);
        }

        /** The defaults configured for this service; reads a {@code seccomp=<file>} profile once. */
        public static Defaults from(TrimusConfig.Docker config) {
            List<String> opts = config.securityOpts().orElse(List.of()).stream()
                    .map(String::trim).filter(o -> !o.isEmpty()).map(Defaults::inlineSeccompProfile).toList();
            return new Defaults(config.pidsLimit(), config.tmpfsSize(), opts, config.defaultTimeoutSec(),
                    config.instance());
        }

        /**
         * The Engine API takes a seccomp profile's JSON, not its path; like the docker CLI, read the file.
         * {@code seccomp=unconfined} and inline JSON are passed through.
         */
        static String inlineSeccompProfile(String opt) {
            int eq = opt.indexOf('=');
            int colon = opt.indexOf(':');
            int sep = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
            if (sep < 0 || !opt.substring(0, sep).equals("seccomp")) {
                return opt;
            }
            String value = opt.substring(sep + 1).trim();
            if (value.equals("unconfined") || value.startsWith("{")) {
                return opt;
            }
            try {
                return "seccomp=" + Files.readString(Path.of(value), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("TRIMUS_DOCKER_SECURITY_OPTS names the seccomp profile " + value
                        + ", which cannot be read: " + e.getMessage(), e);
            }
        }
    }

    /**
     * The defaults of the sandboxed CLI adapters, checked once at boot.
     *
     * @param pidsLimit     TRIMUS_SANDBOX_PIDS_LIMIT
     * @param claudeImage   TRIMUS_SANDBOX_CLAUDE_IMAGE
     * @param codexImage    TRIMUS_SANDBOX_CODEX_IMAGE
     * @param workspaceSize TRIMUS_SANDBOX_WORKSPACE_SIZE
     * @param timeoutSec    TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC
     */
    public record SandboxDefaults(long pidsLimit, String claudeImage, String codexImage, String workspaceSize,
                                  int timeoutSec) {

        public SandboxDefaults {
            if (pidsLimit <= 0) {
                throw new IllegalArgumentException("TRIMUS_SANDBOX_PIDS_LIMIT must be greater than 0, got " + pidsLimit);
            }
            if (workspaceSize == null || !Defaults.TMPFS_SIZE.matcher(workspaceSize.toLowerCase(Locale.ROOT)).matches()) {
                throw new IllegalArgumentException(
                        "TRIMUS_SANDBOX_WORKSPACE_SIZE must be a size like 256m, got '" + workspaceSize + "'");
            }
            if (timeoutSec < DockerAdapterConfig.MIN_TIMEOUT_SEC) {
                throw new IllegalArgumentException("TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC must be at least "
                        + DockerAdapterConfig.MIN_TIMEOUT_SEC + ", got " + timeoutSec);
            }
            workspaceSize = workspaceSize.toLowerCase(Locale.ROOT);
        }

        /** The defaults configured for this service. */
        public static SandboxDefaults from(TrimusConfig.Sandbox config) {
            return new SandboxDefaults(config.pidsLimit(), config.claudeImage(), config.codexImage(),
                    config.workspaceSize(), config.defaultTimeoutSec());
        }

        /** The image of agents of this CLI that name none. */
        public String image(AgentCli cli) {
            return cli == AgentCli.CLAUDE ? claudeImage : codexImage;
        }
    }
}
