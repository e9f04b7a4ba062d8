package io.trimus.adapter.cli;

import io.trimus.adapter.command.CliCommand;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.SandboxDefaults;
import io.trimus.adapter.container.ContainerPolicy;
import io.trimus.adapter.run.RunContext;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliAdapterConfig;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The container policy of a claude_sandbox / codex_sandbox run: the docker adapter's hardening plus the CLI's needs. */
public final class CliSandboxPolicy {
    /** Where a codex_sandbox run's Codex keeps its state: a tmpfs of its own, outside /tmp. */
    public static final String CODEX_HOME = "/codex";

    private CliSandboxPolicy() {
    }

    /**
     * The policy of one run of a claude_sandbox / codex_sandbox agent: the docker adapter's full hardening with a
     * read-only root (only /tmp and /workspace writable), the egress network, TRIMUS_SANDBOX_PIDS_LIMIT, the docker
     * adapter's memory and CPU defaults and log cap, and an environment of exactly the provider key, the agent's
     * secret_env, the run context, HOME=/tmp, IS_SANDBOX=1 (for Codex CODEX_HOME on a tmpfs of its own) and the CLI's {@link QuietCli} switches (the egress proxy
     * settings are added when the sandbox's place on the egress network is known). The CLI is the container's
     * ENTRYPOINT: an agent's own image cannot keep an ENTRYPOINT that wraps or skips the invocation the guardrail
     * decided.
     *
     * @param secrets the provider key and the secret_env variables, opened (surrogates for masked ones), by the
     *                variable they become; masked in what the run reports
     */
    public static ContainerPolicy of(CliAdapterConfig agent, SandboxDefaults sandbox, DockerDefaults defaults,
                                     String egressNetwork, RunRequested run, CliCommand cli,
                                     SandboxSecrets secrets) {
        Map<String, String> tmpfs = new LinkedHashMap<>();
        tmpfs.put("/tmp", ContainerPolicy.tmpOptions(agent.tmpNoexec()) + ",size=" + defaults.tmpfsSize());
        // the image's /workspace belongs to root; the CLI runs as its own user
        tmpfs.put(ContainerPolicy.WORKSPACE, "rw,nosuid,nodev,mode=1777,size=" + sandbox.workspaceSize());
        if (agent.cli() == AgentCli.CODEX) {
            // Codex keeps its state (sessions, a sqlite database, helper links) in CODEX_HOME and refuses to place
            // its helpers under the temporary directory, so its home is a tmpfs of its own, as /tmp is
            tmpfs.put(CODEX_HOME, ContainerPolicy.tmpOptions(agent.tmpNoexec()) + ",size=" + defaults.tmpfsSize());
        }
        long pids = agent.pidsLimit() != null ? agent.pidsLimit() : sandbox.pidsLimit();
        int timeoutSec = agent.timeoutSec() != null ? agent.timeoutSec() : sandbox.timeoutSec();
        long memory = ContainerPolicy.memoryBytes(agent.memoryBytes(), defaults);

        Map<String, String> env = new LinkedHashMap<>(secrets.env());
        env.putAll(RunContext.env(run));
        env.put("HOME", "/tmp");
        env.put("IS_SANDBOX", "1");
        if (agent.cli() == AgentCli.CODEX) {
            env.put("CODEX_HOME", CODEX_HOME);
        }
        env.putAll(QuietCli.env(agent.cli()));

        return new ContainerPolicy(ContainerPolicy.NAME_PREFIX + run.runId(), agent.image() != null ? agent.image()
                : sandbox.image(agent.cli()), cli.argv(), true, Collections.unmodifiableMap(tmpfs), List.of("ALL"),
                ContainerPolicy.securityOpts(defaults), pids, memory, memory,
                ContainerPolicy.nanoCpus(ContainerPolicy.cpus(agent.cpus(), defaults)), egressNetwork, agent.user(),
                Collections.unmodifiableMap(env), ContainerPolicy.labels(run, defaults), Duration.ofSeconds(timeoutSec),
                null, secrets.env().keySet(), cli.notes(), null, defaults.disk().logOptions(), null, secrets.masks(),
                null)
                .commandAsEntrypoint();
    }
}
