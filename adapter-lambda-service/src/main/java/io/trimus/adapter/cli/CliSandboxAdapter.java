package io.trimus.adapter.cli;

import io.trimus.adapter.command.CliCommand;
import io.trimus.adapter.command.output.CliOutput;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.SandboxDefaults;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.container.EngineRequirement;
import io.trimus.adapter.container.RunExecutor;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.adapter.CliPrompt;
import io.trimus.events.adapter.AllowedRuntimes;
import io.trimus.events.adapter.ContainerUser;
import org.jboss.logging.Logger;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * claude_sandbox / codex_sandbox: the CLI inside a container with the docker adapter's full hardening, on the egress
 * network behind the Trimus resolver (DESIGN.md §5). Runs share the docker adapter's executor, so the engine sees one
 * bound on concurrent containers, and its runner, so registration and every fail-secure check are the same code.
 */
public abstract class CliSandboxAdapter implements Adapter {
    private static final Logger LOG = Logger.getLogger(CliSandboxAdapter.class);

    private final AdapterType type;
    private final DockerDefaults dockerDefaults;
    private final SandboxDefaults sandboxDefaults;
    private final String egressNetwork;
    private final int minTimeoutSec;
    private final boolean forbidDangerous;
    private final RunExecutor executor;
    private final RunSecrets secrets;
    private final DockerEngineSwitch engine;
    private final AllowedRuntimes runtimes;

    protected CliSandboxAdapter(AdapterType type, TrimusConfig config, RunExecutor executor, RunSecrets secrets,
            DockerEngineSwitch engine) {
        this.type = type;
        this.dockerDefaults = DockerDefaults.from(config.docker());
        this.sandboxDefaults = SandboxDefaults.from(config.sandbox());
        dockerDefaults.limits().checkDefaults("TRIMUS_SANDBOX_PIDS_LIMIT", sandboxDefaults.pidsLimit(),
                "TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC", sandboxDefaults.timeoutSec());
        this.egressNetwork = config.egress().network().name();
        this.minTimeoutSec = DockerDefaults.minTimeoutSec(config.docker());
        this.forbidDangerous = CliCommand.truthy(config.forbidDangerousClaudePermissions());
        this.executor = executor;
        this.secrets = secrets;
        this.engine = engine;
        this.runtimes = new AllowedRuntimes(config.docker().runtimes(), config.docker().defaultRuntime());
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
     * The engine, the contract, the operator's ceilings and a prompt; the adapter_config is parsed and the secrets
     * opened once, for the checks and for the container policy.
     */
    @Override
    public Admitted admit(RunRequested request) {
        EngineRequirement.require(engine, type);
        CliAdapterConfig agent = CliAdapterConfig.parse(type, request.adapterConfig(), minTimeoutSec);
        ContainerUser.check(agent.user(), dockerDefaults.allowRoot());
        String runtime = runtimes.resolve(agent.runtime());
        dockerDefaults.limits().ceilings().check(agent);
        if (CliPrompt.of(request.issue(), request.input()).isEmpty()) {
            throw new RunRejected("a " + type.wireName() + " run needs a prompt: input or an issue with a title or"
                    + " body");
        }
        SandboxSecrets env = sandboxSecrets(agent, request);
        return () -> queue(request, agent, env, runtime);
    }

    /**
     * The variables the sandbox gets from company secrets: the provider key, then the agent's {@code secret_env}, a
     * surrogate in place of each masked one; nothing else the run may carry.
     *
     * @throws RunRejected when the secrets do not open or one of them is missing
     */
    private SandboxSecrets sandboxSecrets(CliAdapterConfig agent, RunRequested request) {
        Map<String, String> opened = secrets.open(request);
        String keyEnv = agent.cli().apiKeyEnv();
        if (!opened.containsKey(keyEnv)) {
            throw new RunRejected("the run carries no " + keyEnv + "; run-service adds it from the company's secrets");
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put(keyEnv, opened.get(keyEnv));
        env.putAll(RunSecrets.declared(opened, agent.secretEnv().keySet()));
        return SandboxSecrets.of(env, request.masked());
    }

    private void queue(RunRequested request, CliAdapterConfig agent, SandboxSecrets env, String runtime) {
        CliCommand command = CliCommand.build(agent, agent.cli().binary(),
                CliPrompt.of(request.issue(), request.input()), forbidDangerous)
                .withLeadingArgs(QuietCli.leadingArgs(agent.cli()));
        if (!command.notes().isEmpty()) {
            LOG.warnf("%s: run %s of agent %s: %s was dropped (TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS)",
                    CliCommand.SEC_015, request.runId(), request.agentId(), agent.cli().dangerousFlag());
        }
        executor.submit(request, CliSandboxPolicy.of(agent, sandboxDefaults, dockerDefaults, egressNetwork,
                request, command, env).readingOutput(CliOutput.of(agent)).underRuntime(runtime));
    }

    @Override
    public boolean cancel(UUID runId) {
        return executor.cancel(runId);
    }

    /** The docker adapter reaps every Trimus container, these included. */
    @Override
    public List<OrphanRun> reapOrphans() {
        return List.of();
    }
}
