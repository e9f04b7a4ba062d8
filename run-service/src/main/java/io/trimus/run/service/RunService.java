package io.trimus.run.service;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.EventTypes;
import io.trimus.events.IssueRef;
import io.trimus.events.MaskScope;
import io.trimus.events.OutputTail;
import io.trimus.events.RunCancelRequested;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import io.trimus.events.adapter.AdapterConfig;
import io.trimus.events.adapter.AdapterConfigs;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.CliPrompt;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.events.adapter.SecretNeed;
import io.trimus.events.secrets.Redactor;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.Agent;
import io.trimus.run.repository.OutboxEvent;
import io.trimus.run.repository.ProcessedEventRepository;
import io.trimus.run.repository.Run;
import io.trimus.run.repository.RunRepository;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The rules of a run's life: accept (with its outbox event), cancel, and advance on status events. */
@ApplicationScoped
public class RunService {
    private static final Logger LOG = Logger.getLogger(RunService.class);
    static final int ISSUE_ID_MAX_CHARS = 200;
    static final int ISSUE_TITLE_MAX_CHARS = 512;

    private final AgentService agents;
    private final CompanyService companies;
    private final RunRepository runs;
    private final ProcessedEventRepository processedEvents;
    private final Outbox outbox;
    private final TrimusConfig config;
    private final SecretService secrets;
    private final SecretCipher cipher;
    private final WorkerTagService workerTags;

    RunService(AgentService agents, CompanyService companies, RunRepository runs,
               ProcessedEventRepository processedEvents, Outbox outbox, TrimusConfig config,
               SecretService secrets, SecretCipher cipher, WorkerTagService workerTags) {
        this.workerTags = workerTags;
        this.secrets = secrets;
        this.cipher = cipher;
        this.agents = agents;
        this.companies = companies;
        this.runs = runs;
        this.processedEvents = processedEvents;
        this.outbox = outbox;
        this.config = config;
    }

    /**
     * Queues a run of the agent; the run and its run.requested event commit together. Every part of the request is
     * bounded and the whole event must fit one Kafka record, so a request the relay could never publish is refused
     * here (400 naming the field, or 413) and nothing is stored. A remote agent's run needs its worker tag still
     * granted to the company (400 naming adapter_config.worker_tag otherwise) and carries run-service's issuer MAC.
     * A masked secret goes only to a run whose adapter keeps its real value from the agent's code (409 otherwise).
     *
     * @param a2a where a run started over A2A came from (kept for its task's answers), else null
     */
    @TenantTransaction
    public Uni<Run> accept(UUID companyId, UUID agentId, IssueRef issue, String input, A2aOrigin a2a) {
        ProblemException oversized = oversized(issue, input);
        if (oversized != null) {
            return Uni.createFrom().failure(oversized);
        }
        return agents.get(companyId, agentId).call(this::tagStillGranted)
                .flatMap(agent -> secretsFor(agent, issue, input).flatMap(taken -> {
                    Run run = queued(agent, issue, input);
                    if (a2a != null) {
                        run.a2aContextId = a2a.contextId();
                        run.a2aMessageId = a2a.messageId();
                    }
                    RunRequested event = issued(new RunRequested(UUID.randomUUID(), run.id, companyId, agentId,
                            agent.adapterType, agent.adapterConfig, issue, input, run.queuedAt,
                            cipher.sealForDispatch(companyId, agentId, run.id, taken.values()), null,
                            taken.masked()));
                    return runs.persist(run)
                            .call(() -> outbox.add(Topics.RUN_REQUESTED, EventTypes.RUN_REQUESTED, event.id(), run.id,
                                            event)
                                    .onFailure(Outbox.EventTooLarge.class)
                                    .transform(e -> tooLargeForKafka((Outbox.EventTooLarge) e)));
                }));
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

    /** The A2A message a run was started by: its task's contextId and the message's id. */
    public record A2aOrigin(String contextId, String messageId) {
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

    private static ProblemException tooLargeForKafka(Outbox.EventTooLarge e) {
        return new ProblemException(413, "Request too large", "the run would not fit in one Kafka record: its"
                + " run.requested event (issue, input, the agent's adapter_config and the secrets it takes along) is "
                + e.bytes() + " bytes, the limit is " + e.limit() + " (TRIMUS_OUTBOX_MAX_RECORD_BYTES); shorten the"
                + " issue or the input, or slim the agent's adapter_config", null);
    }

    /**
     * The broker refused an outbox event for good (too large, invalid): the row is set aside with the reason, and the
     * run whose request it was ends FAILED with it, so the run says why it never started and no later event waits
     * behind it. A refused cancel leaves its run to end on its own (its adapter's timeout).
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Void> refusedForGood(OutboxEvent row, String reason) {
        Uni<Void> setAside = outbox.refuse(row, reason);
        if (!EventTypes.RUN_REQUESTED.equals(row.type)) {
            LOG.warnf("Kafka refused the %s event of run %s for good, it is set aside: %s", row.type, row.messageKey,
                    reason);
            return setAside;
        }
        return setAside.chain(() -> runs.findById(UUID.fromString(row.messageKey))).invoke(run -> {
            if (run != null && run.status.canMoveTo(RunState.FAILED)) {
                LOG.warnf("Kafka refused the request of run %s for good, the run ends FAILED: %s", run.id, reason);
                finish(run, RunState.FAILED, null, null, reason, Instant.now());
            }
        }).replaceWithVoid();
    }

    /** The values a run takes along by the variable they are sealed under, and the scopes of the masked ones. */
    private record Taken(Map<String, String> values, Map<String, MaskScope> masked) {
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

    /** The run, or a 404 problem. */
    @TenantTransaction
    public Uni<Run> get(UUID companyId, UUID runId) {
        return companies.get(companyId)
                .flatMap(company -> runs.findInCompany(companyId, runId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("run", runId));
    }

    /** The company's latest runs, newest first. */
    @TenantTransaction
    public Uni<List<Run>> latest(UUID companyId, RunState status, int limit) {
        return companies.get(companyId).flatMap(company -> runs.latest(companyId, status, limit));
    }

    /**
     * How many runs are in each state, every state listed (zero when none): across all companies, or in one when
     * {@code companyId} is given (a 404 problem when it does not exist).
     */
    @TenantTransaction
    public Uni<Map<RunState, Long>> countByStatus(UUID companyId) {
        Uni<?> exists = companyId == null ? Uni.createFrom().voidItem() : companies.get(companyId);
        return exists.flatMap(ignored -> runs.countByStatus(companyId)).map(found -> {
            Map<RunState, Long> all = new java.util.EnumMap<>(RunState.class);
            for (RunState state : RunState.values()) {
                all.put(state, found.getOrDefault(state, 0L));
            }
            return all;
        });
    }

    /**
     * Cancels a run. A run whose request is still in the outbox is withdrawn and ends CANCELLED at once;
     * otherwise the adapter is asked to stop it and reports CANCELLED itself.
     */
    @TenantTransaction
    public Uni<Run> cancel(UUID companyId, UUID runId) {
        return get(companyId, runId).call(run -> {
            if (run.status.isTerminal()) {
                return Uni.createFrom().failure(ProblemException.conflict(
                        "run " + runId + " has already finished (" + run.status + ")"));
            }
            return outbox.withdrawUnpublished(EventTypes.RUN_REQUESTED, run.id).flatMap(withdrawn -> {
                if (withdrawn) {
                    finish(run, RunState.CANCELLED, null, null, "cancelled before it was dispatched", Instant.now());
                    return Uni.createFrom().voidItem();
                }
                RunCancelRequested event = new RunCancelRequested(UUID.randomUUID(), run.id, companyId, Instant.now());
                return outbox.add(Topics.RUN_CANCEL, EventTypes.RUN_CANCEL, event.id(), run.id, event).replaceWithVoid();
            });
        });
    }

    /**
     * Advances a run on a status event. Idempotent on the event id, and only forward: a late or duplicate
     * event never moves a finished run.
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Void> applyStatus(RunStatusChanged event) {
        return processedEvents.markFirstSeen(event.id()).flatMap(first -> !first
                ? Uni.createFrom().voidItem()
                : runs.findById(event.runId()).flatMap(run -> redactorFor(run, event)
                        .invoke(redactor -> advance(run, event, redactor))).replaceWithVoid());
    }

    /** Whatever a run printed is stored only after every secret value of its company is masked. */
    private Uni<Redactor> redactorFor(Run run, RunStatusChanged event) {
        if (run == null || (event.output() == null && event.error() == null)) {
            return Uni.createFrom().item(Redactor.none());
        }
        return secrets.redactor(run.companyId);
    }

    private void advance(Run run, RunStatusChanged event, Redactor redactor) {
        if (run == null || !run.companyId.equals(event.companyId())) {
            LOG.warnf("Ignoring status %s for unknown run %s", event.status(), event.runId());
            return;
        }
        holdBy(run, event);
        if (run.peerTaskId == null && event.peerTaskId() != null) {
            run.peerTaskId = event.peerTaskId();   // the first id names the peer's task; a later one changes nothing
        }
        if (!run.status.canMoveTo(event.status())) {
            LOG.debugf("Run %s stays %s: ignoring late %s", run.id, run.status, event.status());
            return;
        }
        Instant at = event.occurredAt() == null ? Instant.now() : event.occurredAt();
        if (event.notes() != null) {
            String added = String.join("\n", event.notes());
            run.notes = run.notes == null ? added : run.notes + "\n" + added;
        }
        switch (event.status()) {
            case DISPATCHED -> {
                run.status = RunState.DISPATCHED;
                run.dispatchedAt = at;
            }
            case RUNNING -> {
                run.status = RunState.RUNNING;
                run.startedAt = at;
                if (run.dispatchedAt == null) {
                    run.dispatchedAt = at;
                }
            }
            default -> finish(run, event.status(), event.exitCode(), redactor.redact(event.output()),
                    redactor.redact(event.error()), at);
        }
    }

    /**
     * The process that reported the run's latest step holds it: a step forward, or DISPATCHED again (the run was
     * dispatched again, or its request reached a second process). A late step of an earlier holder changes nothing.
     */
    private static void holdBy(Run run, RunStatusChanged event) {
        if (event.reportedBy() == null || event.status().isTerminal() || event.reportedBy().equals(run.heldBy)) {
            return;
        }
        boolean again = run.status == RunState.DISPATCHED && event.status() == RunState.DISPATCHED;
        if (run.status.canMoveTo(event.status()) || again) {
            run.heldBy = event.reportedBy();
            run.heldSince = Instant.now();
        }
    }

    /** Ends a run: the one place a run reaches a terminal state, whoever ends it (adapter, cancel, stale sweep). */
    void finish(Run run, RunState state, Integer exitCode, String output, String error, Instant at) {
        run.status = state;
        run.exitCode = exitCode;
        run.output = OutputTail.of(output, config.run().outputMaxBytes());
        run.error = error;
        run.finishedAt = at;
    }

    private static Run queued(Agent agent, IssueRef issue, String input) {
        Run run = new Run();
        run.id = UUID.randomUUID();
        run.companyId = agent.companyId;
        run.agentId = agent.id;
        run.adapterType = agent.adapterType;
        run.status = RunState.QUEUED;
        if (issue != null) {
            run.issueId = issue.id();
            run.issueTitle = issue.title();
            run.issueBody = issue.body();
        }
        run.input = input;
        run.queuedAt = Instant.now();
        return run;
    }
}
