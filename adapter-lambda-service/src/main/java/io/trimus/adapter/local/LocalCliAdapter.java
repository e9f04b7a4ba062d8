package io.trimus.adapter.local;

import io.trimus.adapter.command.CliCommand;
import io.trimus.adapter.command.output.CliOutput;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.adapter.CliPrompt;
import io.trimus.events.adapter.LocalAdaptersGate;
import io.trimus.events.secrets.Redactor;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * claude_local / codex_local: the CLI as a child process of this service, in the agent's home under TRIMUS_HOME, with
 * the service's environment minus TRIMUS_LOCAL_ENV_STRIP. No isolation at all, so it is gated by TRIMUS_LOCAL_ADAPTERS
 * (off by default), pinned by the binary allowlist and subject to the dangerous-permissions guardrail.
 */
public abstract class LocalCliAdapter implements Adapter {
    private static final Logger LOG = Logger.getLogger(LocalCliAdapter.class);
    /** Where Codex's {@code exec} reads an API key for its built-in provider. */
    static final String CODEX_API_KEY = "CODEX_API_KEY";

    private final AdapterType type;
    private final LocalAdaptersGate gate;
    private final BinaryAllowlist allowlist;
    private final LocalEnvironment environment;
    private final Path agentsHome;
    private final int defaultTimeoutSec;
    private final int minTimeoutSec;
    private final boolean forbidDangerous;
    private final RunSecrets secrets;
    private final LocalProcessRunner runner;
    private final Map<String, String> serviceEnv;

    protected LocalCliAdapter(AdapterType type, TrimusConfig config, RunSecrets secrets, LocalProcessRunner runner,
                              Map<String, String> serviceEnv) {
        this.type = type;
        this.gate = config.localAdapters();
        AgentCli cli = AgentCli.of(type);
        this.allowlist = cli == AgentCli.CLAUDE
                ? new BinaryAllowlist("TRIMUS_CLAUDE_BINARY_ALLOWLIST", config.claudeBinaryAllowlist())
                : new BinaryAllowlist("TRIMUS_CODEX_BINARY_ALLOWLIST", config.codexBinaryAllowlist());
        this.environment = new LocalEnvironment(config.local().envStrip());
        this.agentsHome = config.home().map(Path::of)
                .orElse(Path.of(System.getProperty("user.home"), ".trimus")).toAbsolutePath().resolve("agents");
        this.defaultTimeoutSec = config.local().defaultTimeoutSec();
        this.minTimeoutSec = DockerDefaults.minTimeoutSec(config.docker());
        this.forbidDangerous = CliCommand.truthy(config.forbidDangerousClaudePermissions());
        this.secrets = secrets;
        this.runner = runner;
        this.serviceEnv = Map.copyOf(serviceEnv);
    }

    @Override
    public AdapterType type() {
        return type;
    }

    /** Checks the run as {@link #admit} does; nothing is queued. */
    @Override
    public void validate(RunRequested request) {
        admit(request);
    }

    /** Checks and queues the run (the dispatcher calls {@link #admit} and reports DISPATCHED between the two). */
    @Override
    public void submit(RunRequested request) {
        admit(request).submit();
    }

    /**
     * The gate, the contract, a prompt, no masked secrets, a binary on the allowlist and secrets that open; the
     * adapter_config is parsed, the binary resolved and the secrets opened once, for the checks and for the launch.
     */
    @Override
    public Admitted admit(RunRequested request) {
        if (gate == LocalAdaptersGate.OFF) {
            throw new RunRejected(LocalAdaptersGate.refusal(type));
        }
        CliAdapterConfig agent = CliAdapterConfig.parse(type, request.adapterConfig(), minTimeoutSec);
        if (CliPrompt.of(request.issue(), request.input()).isEmpty()) {
            throw new RunRejected("a " + type.wireName() + " run needs a prompt: input or an issue with a title or"
                    + " body");
        }
        SandboxSecrets.refuseMasked(request, type.wireName());
        Path binary = binary(agent);
        Map<String, String> opened = secrets.open(request);
        return () -> launch(request, agent, binary, opened);
    }

    private void launch(RunRequested request, CliAdapterConfig agent, Path binary, Map<String, String> opened) {
        if (gate == LocalAdaptersGate.WARN) {
            LOG.warnf("run %s uses %s, a host process without isolation; host-process adapters are deprecated for"
                    + " anything but trusted single-tenant hosts: move the agent to %s", request.runId(),
                    type.wireName(), type.wireName().replace("_local", "_sandbox"));
        }
        CliCommand command = CliCommand.build(agent, binary.toString(),
                CliPrompt.of(request.issue(), request.input()), forbidDangerous);
        if (!command.notes().isEmpty()) {
            LOG.warnf("%s: run %s of agent %s: %s was dropped (TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS)",
                    CliCommand.SEC_015, request.runId(), request.agentId(), agent.cli().dangerousFlag());
        }
        int timeoutSec = agent.timeoutSec() != null ? agent.timeoutSec() : defaultTimeoutSec;
        Map<String, String> env = environment.build(serviceEnv, request, opened);
        String key = opened.get(AgentCli.CODEX.apiKeyEnv());
        if (agent.cli() == AgentCli.CODEX && key != null) {
            // Codex 0.171's exec takes a key for its built-in provider only from CODEX_API_KEY (or a login): the
            // company's OPENAI_API_KEY goes there too, or a host's codex would call the API without it
            env.put(CODEX_API_KEY, key);
        }
        runner.submit(request, new LocalLaunch(command.argv(), env,
                agentHome(request.agentId()), Duration.ofSeconds(timeoutSec), Redactor.of(opened.values()),
                command.notes(), CliOutput.of(agent)));
    }

    @Override
    public boolean cancel(UUID runId) {
        return runner.cancel(runId);
    }

    /** A host process does not outlive the service that started it in a way this service could find again. */
    @Override
    public List<OrphanRun> reapOrphans() {
        return List.of();
    }

    /** The agent's home: {@code <TRIMUS_HOME>/agents/<agent_id>}. */
    public Path agentHome(UUID agentId) {
        return agentsHome.resolve(agentId.toString());
    }

    private Path binary(CliAdapterConfig agent) {
        String command = agent.command() != null ? agent.command() : agent.cli().binary();
        return allowlist.resolve(command, serviceEnv.get("PATH"));
    }
}
