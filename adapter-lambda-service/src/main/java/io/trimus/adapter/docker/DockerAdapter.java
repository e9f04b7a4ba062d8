package io.trimus.adapter.docker;

import io.quarkus.runtime.Startup;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.container.ContainerPolicy;
import io.trimus.adapter.container.DockerContainerRunner;
import io.trimus.adapter.container.EngineRequirement;
import io.trimus.adapter.container.OrphanContainers;
import io.trimus.adapter.container.RunExecutor;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AllowedRuntimes;
import io.trimus.events.adapter.ContainerUser;
import io.trimus.events.adapter.DockerAdapterConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code docker} adapter: an operator image in a hardened container (DESIGN.md §5). Created at boot so a
 * wrong TRIMUS_DOCKER_* value stops the service instead of failing runs later.
 */
@Startup
@ApplicationScoped
public class DockerAdapter implements Adapter {

    private final DockerDefaults defaults;
    private final RunExecutor executor;
    private final OrphanContainers orphans;
    private final DockerEngineSwitch engine;
    private final RunSecrets secrets;
    private final String egressNetwork;
    private final int minTimeoutSec;
    private final AllowedRuntimes runtimes;

    @Inject
    public DockerAdapter(TrimusConfig config, RunExecutor executor, OrphanContainers orphans,
            DockerEngineSwitch engine, RunSecrets secrets) {
        this.defaults = DockerDefaults.from(config.docker());
        this.executor = executor;
        this.orphans = orphans;
        this.engine = engine;
        this.secrets = secrets;
        this.egressNetwork = config.egress().network().name();
        this.minTimeoutSec = DockerDefaults.minTimeoutSec(config.docker());
        this.runtimes = new AllowedRuntimes(config.docker().runtimes(), config.docker().defaultRuntime());
    }

    @Override
    public AdapterType type() {
        return AdapterType.DOCKER;
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
     * The engine, the contract, then the operator's choices: the network must be on TRIMUS_DOCKER_ALLOWED_NETWORKS
     * (checked before the rest, so {@code bridge} gets the same sentence as any unlisted name), root needs
     * TRIMUS_DOCKER_ALLOW_ROOT, the runtime must be on TRIMUS_DOCKER_RUNTIMES, and timeout, pids, memory and cpus stay within the TRIMUS_DOCKER_MAX_* ceilings (which
     * the operator may have lowered since the agent was created). The runner inspects the network itself before the
     * container exists. The adapter_config is parsed and the secrets opened once, for the checks and the policy.
     */
    @Override
    public Admitted admit(RunRequested request) {
        EngineRequirement.require(engine, type());
        defaults.allowedNetworks().checkDocker(request.adapterConfig());
        DockerAdapterConfig config = DockerAdapterConfig.parse(request.adapterConfig(), minTimeoutSec);
        ContainerUser.check(config.user(), defaults.allowRoot());
        String runtime = runtimes.resolve(config.runtime());
        defaults.limits().ceilings().check(config);
        if (!request.masked().isEmpty() && !egressNetwork.equals(config.network())) {
            throw new RunRejected(DockerContainerRunner.MASKS_NEED_EGRESS + " " + egressNetwork + ", not on network "
                    + config.network());
        }
        SandboxSecrets env = secretEnv(config, request);
        return () -> executor.submit(request, ContainerPolicy.forDocker(config, defaults, request, env)
                .underRuntime(runtime));
    }

    /**
     * The agent's {@code secret_env} variables with their opened values, a surrogate for each masked one; nothing
     * else the run may carry.
     *
     * @throws RunRejected when the secrets do not open or one of the variables is missing
     */
    private SandboxSecrets secretEnv(DockerAdapterConfig config, RunRequested request) {
        if (config.secretEnv().isEmpty()) {
            return SandboxSecrets.plain(Map.of());
        }
        return SandboxSecrets.of(RunSecrets.declared(secrets.open(request), config.secretEnv().keySet()),
                request.masked());
    }

    @Override
    public boolean cancel(UUID runId) {
        return executor.cancel(runId);
    }

    @Override
    public List<OrphanRun> reapOrphans() {
        if (!engine.enabled()) {
            return List.of();
        }
        return orphans.reap(executor::holds);
    }
}
