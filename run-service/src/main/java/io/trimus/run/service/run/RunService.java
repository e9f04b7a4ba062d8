package io.trimus.run.service.run;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.EventTypes;
import io.trimus.events.IssueRef;
import io.trimus.events.RunCancelRequested;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.Topics;
import io.trimus.run.repository.agent.Agent;
import io.trimus.run.repository.run.Run;
import io.trimus.run.repository.run.RunRepository;
import io.trimus.run.service.company.CompanyService;
import io.trimus.run.service.outbox.Outbox;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The runs of a company as the API and A2A see them: accept one (the run and its run.requested event commit together,
 * {@link RunAdmission} decides what it must meet and carries), read and list them, and cancel one.
 */
@ApplicationScoped
public class RunService {
    private final RunAdmission admission;
    private final RunLifecycle lifecycle;
    private final CompanyService companies;
    private final RunRepository runs;
    private final Outbox outbox;

    RunService(RunAdmission admission, RunLifecycle lifecycle, CompanyService companies, RunRepository runs,
               Outbox outbox) {
        this.admission = admission;
        this.lifecycle = lifecycle;
        this.companies = companies;
        this.runs = runs;
        this.outbox = outbox;
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
        return admission.admit(companyId, agentId, issue, input).flatMap(admitted -> {
            Run run = queued(admitted.agent(), issue, input);
            if (a2a != null) {
                run.a2aContextId = a2a.contextId();
                run.a2aMessageId = a2a.messageId();
                run.a2aCaller = a2a.caller();
            }
            RunRequested event = admission.requested(run, admitted, issue, input);
            return runs.persist(run)
                    .call(() -> outbox.add(Topics.RUN_REQUESTED, EventTypes.RUN_REQUESTED, event.id(), run.id, event)
                            .onFailure(Outbox.EventTooLarge.class)
                            .transform(e -> RunAdmission.tooLargeForKafka((Outbox.EventTooLarge) e)));
        });
    }

    /** The A2A message a run was started by: its task's contextId, the message's id, and who sent it. */
    public record A2aOrigin(String contextId, String messageId, UUID caller) {
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
            Map<RunState, Long> all = new EnumMap<>(RunState.class);
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
                    lifecycle.finish(run, RunState.CANCELLED, null, null, "cancelled before it was dispatched",
                            Instant.now());
                    return Uni.createFrom().voidItem();
                }
                RunCancelRequested event = new RunCancelRequested(UUID.randomUUID(), run.id, companyId, Instant.now());
                return outbox.add(Topics.RUN_CANCEL, EventTypes.RUN_CANCEL, event.id(), run.id, event)
                        .replaceWithVoid();
            });
        });
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
