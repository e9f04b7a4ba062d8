package io.trimus.run.service.run;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.AdapterConfig;
import io.trimus.events.adapter.AdapterConfigs;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliPrompt;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.events.adapter.SecretNeed;
import io.trimus.events.MaskScope;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.agent.Agent;
import io.trimus.run.repository.run.Run;
import io.trimus.run.service.agent.AgentService;
import io.trimus.run.service.outbox.Outbox;
import io.trimus.run.service.secret.MaskedSecrets;
import io.trimus.run.service.secret.SecretCipher;
import io.trimus.run.service.secret.SecretService;
import io.trimus.run.service.worker.WorkerTagService;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a run request must meet before anything is stored, and what its run.requested event carries: every part of the
 * request within its bound, the agent's worker tag still granted (a remote agent), a prompt for a CLI agent, the
 * secrets its adapter_config needs granted (and masked ones only to adapters that keep their value from the agent's
 * code), sealed for the dispatch, and run-service's issuer MAC on a remote run.
 */
@ApplicationScoped
public class RunAdmission {
    static final int ISSUE_ID_MAX_CHARS = 200;
    static final int ISSUE_TITLE_MAX_CHARS = 512;

    private final AgentService agents;
    private final TrimusConfig config;
    private final SecretService secrets;
    private final SecretCipher cipher;
    private final WorkerTagService workerTags;

    RunAdmission(AgentService agents, TrimusConfig config, SecretService secrets, SecretCipher cipher,
                 WorkerTagService workerTags) {
        this.agents = agents;
        this.config = config;
        this.secrets = secrets;
        this.cipher = cipher;
        this.workerTags = workerTags;
    }

    /** An admitted request: the agent to run and the secrets the run takes along. */
    record Admitted(Agent agent, Taken taken) {
    }

    /**
     * The agent and the secrets its run takes, once the request fits its bounds (400 naming the field), the agent's
     * worker tag is still granted (400) and its secrets are usable (409); joins the caller's transaction.
     */
    Uni<Admitted> admit(UUID companyId, UUID agentId, IssueRef issue, String input) {
        ProblemException oversized = oversized(issue, input);
        if (oversized != null) {
            return Uni.createFrom().failure(oversized);
        }
        return agents.get(companyId, agentId).call(this::tagStillGranted)
                .flatMap(agent -> secretsFor(agent, issue, input).map(taken -> new Admitted(agent, taken)));
    }

    /** The run.requested event of the admitted run: its secrets sealed for the dispatch, a remote run's MAC added. */
    RunRequested requested(Run run, Admitted admitted, IssueRef issue, String input) {
        Agent agent = admitted.agent();
        return issued(new RunRequested(UUID.randomUUID(), run.id, run.companyId, agent.id, agent.adapterType,
                agent.adapterConfig, issue, input, run.queuedAt,
                cipher.sealForDispatch(run.companyId, agent.id, run.id, admitted.taken().values()), null,
                admitted.taken().masked()));
    }

    private Uni<Void> tagStillGranted(Agent agent) {
        if (!AdapterType.REMOTE.wireName().equals(agent.adapterType)) {
            return Uni.createFrom().voidItem();
        }
        return workerTags.requireGrantedTagOf(agent.companyId, agent.adapterConfig);
    }

    /**
     * A remote agent's request with run-service's MAC over the run as its worker will receive it; others, and runs
     * delegated to an A2A peer (no worker of ours runs them), as they are.
     */
    private RunRequested issued(RunRequested event) {
        if (!AdapterType.REMOTE.wireName().equals(event.adapterType())) {
            return event;
        }
        RemoteAdapterConfig remote = RemoteAdapterConfig.parse(event.adapterConfig());
        if (remote.toPeer()) {
            return event;
        }
        return event.withIssuerMac(cipher.issuerMac(remote.inner(event), remote.workerTag()));
    }

    /** The first part of a run request over its limit, as a 400 naming it; null when every part fits. */
    private ProblemException oversized(IssueRef issue, String input) {
        if (input != null && utf8Bytes(input) > config.run().inputMaxBytes()) {
            return ProblemException.invalid("input", "is larger than " + config.run().inputMaxBytes() + " bytes");
        }
        if (issue == null) {
            return null;
        }
        if (issue.id() != null && issue.id().length() > ISSUE_ID_MAX_CHARS) {
            return ProblemException.invalid("issue.id", "must be at most " + ISSUE_ID_MAX_CHARS + " characters");
        }
        if (issue.title() != null && issue.title().length() > ISSUE_TITLE_MAX_CHARS) {
            return ProblemException.invalid("issue.title", "must be at most " + ISSUE_TITLE_MAX_CHARS + " characters");
        }
        if (issue.body() != null && utf8Bytes(issue.body()) > config.run().issueBodyMaxBytes()) {
            return ProblemException.invalid("issue.body", "is larger than " + config.run().issueBodyMaxBytes()
                    + " bytes");
        }
        return null;
    }

    private static int utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The 413 of a run whose run.requested event would not fit one Kafka record. */
    static ProblemException tooLargeForKafka(Outbox.EventTooLarge e) {
        return new ProblemException(413, "Request too large", "the run would not fit in one Kafka record: its"
                + " run.requested event (issue, input, the agent's adapter_config and the secrets it takes along) is "
                + e.bytes() + " bytes, the limit is " + e.limit() + " (TRIMUS_OUTBOX_MAX_RECORD_BYTES); shorten the"
                + " issue or the input, or slim the agent's adapter_config", null);
    }

    /** The values a run takes along by the variable they are sealed under, and the scopes of the masked ones. */
    record Taken(Map<String, String> values, Map<String, MaskScope> masked) {
        static final Taken NONE = new Taken(Map.of(), Map.of());
    }

    /**
     * The secrets a run of this agent takes along, sealed into run.requested under the key of the role they play;
     * which ones, and whether the run may start without them, is the adapter_config's to say
     * ({@link AdapterConfig#secretNeeds()}). A CLI agent, on the host, in a sandbox or on a worker, also needs a
     * prompt.
     */
    private Uni<Taken> secretsFor(Agent agent, IssueRef issue, String input) {
        AdapterType type = AdapterType.fromWire(agent.adapterType).orElse(null);
        if (type == null) {
            return Uni.createFrom().item(Taken.NONE);
        }
        AdapterConfig adapterConfig = AdapterConfigs.parse(type, agent.adapterConfig);
        AdapterType runsAs = adapterConfig instanceof RemoteAdapterConfig remote && !remote.toPeer()
                ? remote.adapterType() : type;
        if (AgentCli.of(runsAs) != null && CliPrompt.of(issue, input).isEmpty()) {
            return Uni.createFrom().failure(ProblemException.invalid("input", "or an issue with a title or body is"
                    + " required: a " + runsAs.wireName() + " agent's prompt is built from them"));
        }
        return sealable(agent, type, adapterConfig.secretNeeds());
    }

    /**
     * The needed secrets the agent may take; a 409 naming the first that is required but missing or not granted, or
     * masked while {@code type} (the agent's own adapter, {@code remote} for a remote agent) would hand its real value
     * to code the agent runs.
     */
    private Uni<Taken> sealable(Agent agent, AdapterType type, List<SecretNeed> needs) {
        if (needs.isEmpty()) {
            return Uni.createFrom().item(Taken.NONE);
        }
        List<String> names = needs.stream().map(SecretNeed::secretName).distinct().toList();
        return secrets.usableBy(agent.companyId, agent.id, names).flatMap(usable -> {
            Map<String, String> sealed = new HashMap<>();
            Map<String, MaskScope> masked = new HashMap<>();
            for (SecretNeed need : needs) {
                String value = usable.values().get(need.secretName());
                MaskScope mask = usable.masked().get(need.secretName());
                if (value != null && mask != null && !MaskedSecrets.mayUse(type)) {
                    return Uni.createFrom().failure(maskedOutOfReach(agent, type, need));
                }
                if (value != null) {
                    sealed.put(need.sealedAs(), value);
                    if (mask != null) {
                        masked.put(need.sealedAs(), mask);
                    }
                } else if (need.required()) {
                    return Uni.createFrom().failure(usable.notGranted().contains(need.secretName())
                            ? notGranted(agent, need) : missingSecret(agent, need));
                }
            }
            return Uni.createFrom().item(new Taken(Map.copyOf(sealed), Map.copyOf(masked)));
        });
    }

    private static ProblemException maskedOutOfReach(Agent agent, AdapterType type, SecretNeed need) {
        return ProblemException.conflict("the company's secret " + need.secretName() + " is masked: only sandboxed"
                + " agents (docker, claude_sandbox, codex_sandbox) and lambda can use it; a host process or remote"
                + " worker would get the real value. Agent " + agent.id + " (" + type.wireName() + ") would take it"
                + " as " + need.role() + "; run it with a sandboxed agent, or store the secret unmasked with PUT"
                + " /api/companies/" + agent.companyId + "/secrets/" + need.secretName());
    }

    private static ProblemException missingSecret(Agent agent, SecretNeed need) {
        return ProblemException.conflict("the company has no secret " + need.secretName() + ", which agent "
                + agent.id + " needs as " + need.role() + "; set it with PUT /api/companies/" + agent.companyId
                + "/secrets/" + need.secretName());
    }

    private static ProblemException notGranted(Agent agent, SecretNeed need) {
        return ProblemException.conflict("the company's secret " + need.secretName() + " is not granted to agent "
                + agent.id + ", which needs it as " + need.role() + "; add the agent to its agents with PUT"
                + " /api/companies/" + agent.companyId + "/secrets/" + need.secretName());
    }
}
