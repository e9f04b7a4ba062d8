package io.trimus.run.service.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.adapter.AdapterConfig;
import io.trimus.events.adapter.AdapterConfigException;
import io.trimus.events.adapter.AdapterConfigs;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AllowedNetworks;
import io.trimus.events.adapter.AllowedRuntimes;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.adapter.ContainerUser;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.events.adapter.EgressProxyEnv;
import io.trimus.events.adapter.LocalAdaptersGate;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.events.adapter.ResourceCeilings;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.agent.Agent;
import io.trimus.run.repository.agent.AgentRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.company.CompanyService;
import io.trimus.run.service.secret.SecretService;
import io.trimus.run.service.worker.WorkerTagService;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Registers agents after checking their adapter_config against the adapter's contract, the operator's choices
 * (networks, root, resource ceilings), the company secrets its secret_env names and, for a remote agent, its
 * company's worker-tag grants; nothing invalid is stored.
 */
@Startup
@ApplicationScoped
public class AgentService {
    private final AgentRepository agents;
    private final CompanyService companies;
    private final TrimusConfig config;
    private final WorkerTagService workerTags;
    private final ResourceCeilings ceilings;
    private final AllowedRuntimes runtimes;
    private final SecretService secrets;
    private final AuditLog audit;

    AgentService(AgentRepository agents, CompanyService companies, TrimusConfig config, WorkerTagService workerTags,
                 SecretService secrets, AuditLog audit) {
        this.agents = agents;
        this.audit = audit;
        this.secrets = secrets;
        this.companies = companies;
        this.config = config;
        this.workerTags = workerTags;
        this.ceilings = ceilings(config.docker());
        // TRIMUS_DOCKER_RUNTIMES / _DEFAULT_RUNTIME, checked once: a default that is not listed stops the service at boot
        this.runtimes = new AllowedRuntimes(config.docker().runtimes(), config.docker().defaultRuntime());
    }

    /** TRIMUS_DOCKER_MAX_*, checked once: a wrong value stops the service at boot. */
    static ResourceCeilings ceilings(TrimusConfig.Docker docker) {
        return docker.ceilings();
    }

    @TenantTransaction
    public Uni<Agent> create(UUID companyId, String name, String adapterType, JsonNode adapterConfig) {
        Agent agent;
        try {
            agent = newAgent(companyId, name, adapterType, adapterConfig);
        } catch (ProblemException e) {
            return Uni.createFrom().failure(e);
        }
        return companies.get(companyId)
                .call(company -> agent.adapterType.equals(AdapterType.REMOTE.wireName())
                        ? workerTags.requireGrantedTagOf(companyId, agent.adapterConfig)
                        : Uni.createFrom().voidItem())
                .call(company -> secretEnvUsable(agent))
                .flatMap(company -> agents.persist(agent))
                .call(created -> audit.record(companyId, AuditRecord.AGENT_CREATED,
                        new AuditRecord.Target("agent", created.id.toString(), created.name),
                        AuditLog.details("adapter_type", created.adapterType)));
    }

    /**
     * A 409 naming the first secret of the agent's {@code secret_env} that the company lacks or has not granted to
     * every agent (a new agent has no grant by name yet): its runs could never start. Run creation checks again.
     */
    private Uni<Void> secretEnvUsable(Agent agent) {
        Map<String, String> secretEnv = AdapterConfigs.parse(AdapterType.fromWire(agent.adapterType).orElseThrow(),
                agent.adapterConfig).secretEnv();
        if (secretEnv.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return secrets.unusableBy(agent.companyId, agent.id, secretEnv.values()).flatMap(unusable -> {
            String name = unusable.first();
            if (name == null) {
                return Uni.createFrom().voidItem();
            }
            String variable = secretEnv.entrySet().stream().filter(e -> e.getValue().equals(name))
                    .map(Map.Entry::getKey).findFirst().orElseThrow();
            String path = "/api/companies/" + agent.companyId + "/secrets/" + name;
            return Uni.createFrom().failure(ProblemException.conflict(unusable.missing().contains(name)
                    ? "the company has no secret " + name + ", which adapter_config.secret_env." + variable
                      + " names; set it first with PUT " + path
                    : "the company's secret " + name + ", which adapter_config.secret_env." + variable + " names, is"
                      + " granted to named agents only, so a new agent cannot use it; grant it to every agent (PUT "
                      + path + " without agents), create the agent, then narrow the grant to it"));
        });
    }

    @TenantTransaction
    public Uni<Agent> get(UUID companyId, UUID agentId) {
        return companies.get(companyId)
                .flatMap(company -> agents.findInCompany(companyId, agentId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("agent", agentId));
    }

    @TenantTransaction
    public Uni<List<Agent>> list(UUID companyId) {
        return companies.get(companyId).flatMap(company -> agents.listInCompany(companyId));
    }

    private Agent newAgent(UUID companyId, String name, String adapterType, JsonNode adapterConfig) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > 200) {
            throw ProblemException.invalid("name", "must be 1 to 200 characters");
        }
        AdapterType type;
        try {
            if (AdapterType.DOCKER.wireName().equals(adapterType)) {
                // first: bridge or container:<id> get the same sentence as any network the operator did not list
                new AllowedNetworks(config.docker().allowedNetworks()).checkDocker(adapterConfig);
            }
            type = AdapterConfigs.validate(adapterType, adapterConfig);
            AdapterConfig parsed = AdapterConfigs.parse(type, adapterConfig);
            ContainerUser.check(containerUser(parsed), config.docker().allowRoot());
            runtimes.resolve(runtime(parsed));
            ceilings.check(parsed);
            refuseProxyEnv(parsed, "adapter_config.");
        } catch (AdapterConfigException e) {
            throw ProblemException.invalid(e.field(), e.getMessage());
        }
        if (LocalAdaptersGate.governs(type) && config.localAdapters() == LocalAdaptersGate.OFF) {
            throw new ProblemException(400, "Invalid request", LocalAdaptersGate.refusal(type), "adapter_type");
        }
        Agent agent = new Agent();
        agent.id = UUID.randomUUID();
        agent.companyId = companyId;
        agent.name = trimmed;
        agent.adapterType = type.wireName();
        agent.adapterConfig = adapterConfig.deepCopy();
        agent.createdAt = Instant.now();
        return agent;
    }

    /**
     * Refuses a docker agent (also a remote worker's) whose env names a proxy variable: on the egress network Trimus
     * sets them to its egress proxy, and a tenant learns that now rather than finding them silently replaced.
     */
    private static void refuseProxyEnv(AdapterConfig parsed, String prefix) {
        if (parsed instanceof DockerAdapterConfig docker) {
            for (String name : docker.env().keySet()) {
                if (EgressProxyEnv.reserved(name)) {
                    throw new AdapterConfigException(prefix + "env." + name, "is set by Trimus: containers on the"
                            + " egress network reach the internet only through the Trimus egress proxy");
                }
            }
        } else if (parsed instanceof RemoteAdapterConfig remote && !remote.toPeer()) {
            refuseProxyEnv(AdapterConfigs.parse(remote.adapterType(), remote.adapterConfig()),
                    prefix + "adapter_config.");
        }
    }

    /** The OCI runtime a container agent asks for, null when it names none (or is no container agent). */
    private static String runtime(AdapterConfig parsed) {
        if (parsed instanceof DockerAdapterConfig docker) {
            return docker.runtime();
        }
        if (parsed instanceof CliAdapterConfig cli) {
            return cli.runtime();
        }
        return null;
    }

    /**
     * The user a container agent asks for, or null. A remote agent's inner adapter is left to its worker, which
     * applies its own TRIMUS_DOCKER_ALLOW_ROOT and TRIMUS_DOCKER_ALLOWED_NETWORKS.
     */
    private static String containerUser(AdapterConfig parsed) {
        if (parsed instanceof DockerAdapterConfig docker) {
            return docker.user();
        }
        if (parsed instanceof CliAdapterConfig cli) {
            return cli.user();
        }
        return null;
    }
}
