package io.trimus.run.service.a2a;

import io.a2a.spec.InternalError;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.Message;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskNotFoundError;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.context.FreshContext;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.auth.Caller;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.run.Run;
import io.trimus.run.repository.run.RunRepository;
import io.trimus.run.service.run.RunChanges;
import io.trimus.run.service.run.RunService;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A2A tasks of a published agent, which are its runs: started, read and cancelled through {@link RunService} exactly
 * as the REST API does (same limits, secrets, outbox), and followed by reading PostgreSQL again each time
 * {@link RunChanges} says the run may have changed. A task lives in the database, not in memory, so any run-service
 * replica answers for any task, streams included.
 */
@ApplicationScoped
public class A2aTasks {
    private final RunService runs;
    private final RunRepository runRows;
    private final RunChanges changes;
    private final TrimusConfig.A2a config;
    private final Vertx vertx;

    A2aTasks(RunService runs, RunRepository runRows, RunChanges changes, TrimusConfig config, Vertx vertx) {
        this.runs = runs;
        this.changes = changes;
        this.runRows = runRows;
        this.config = config.a2a();
        this.vertx = vertx;
    }

    /**
     * Starts a run of the agent for the message; refused as the REST API would refuse it, as invalid params. The same
     * messageId again (a caller retrying after a lost answer) answers the run it started, however many copies arrive
     * at once: the run table's unique index ({@link RunRepository#A2A_MESSAGE_KEY}) lets one of them be stored, and the
     * others answer the one that was.
     */
    public Uni<Run> start(UUID companyId, UUID agentId, Caller caller, Message message) {
        RunRequestOfMessage request;
        try {
            request = RunRequestOfMessage.of(message);
        } catch (A2aRefusal refused) {
            return Uni.createFrom().failure(refused);
        }
        Supplier<Uni<Run>> earlier = () -> TenantTransactions.asCaller(() -> runRows.findByA2aMessage(companyId,
                agentId, caller.id(), request.messageId()));
        return earlier.get().flatMap(found -> found != null ? Uni.createFrom().item(found)
                : runs.accept(companyId, agentId, request.issue(), request.input(),
                                new RunService.A2aOrigin(request.contextId(), request.messageId(), caller.id()))
                        .onFailure(A2aTasks::isRepeatedMessage).recoverWithUni(e -> earlier.get()
                                .onItem().ifNull().failWith(() -> e))
                        .onFailure(ProblemException.class).transform(e -> refusal((ProblemException) e)));
    }

    /** Whether a failure is the unique index refusing a second run of the same messageId. */
    static boolean isRepeatedMessage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(RunRepository.A2A_MESSAGE_KEY)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The run that is task {@code taskId} of this agent as {@code caller} may see it, or TaskNotFoundError: a member
     * sees every run of the agent (as through the REST API), an A2A-only token only the tasks it started itself, not
     * another partner's nor the company's own runs, with the same answer as for a task that does not exist.
     */
    public Uni<Run> get(UUID companyId, UUID agentId, Caller caller, String taskId) {
        UUID runId = runId(taskId);
        if (runId == null) {
            return Uni.createFrom().failure(notFound());
        }
        return runs.get(companyId, runId)
                .onFailure(ProblemException.class).transform(e -> notFound())
                .invoke(run -> {
                    if (!run.agentId.equals(agentId) || (caller.a2aOnly() && !caller.id().equals(run.a2aCaller))) {
                        throw notFound();
                    }
                });
    }

    /**
     * Cancels the task's run as POST …/cancel does; TaskNotCancelableError once it had ended. The caller waits for
     * the run to end ({@link #awaitEnd}, at most {@link #CANCEL_WAIT}) before it answers the task.
     */
    public Uni<Run> cancel(UUID companyId, UUID agentId, Caller caller, String taskId) {
        return get(companyId, agentId, caller, taskId).flatMap(run -> {
            if (run.status.isTerminal()) {
                return Uni.createFrom().failure(notCancelable(run));
            }
            return runs.cancel(companyId, run.id)
                    .invoke(cancelled -> changes.changed(cancelled.id))   // committed: it may have ended here
                    .onFailure(ProblemException.class)
                    .transform(e -> ((ProblemException) e).status() == 409 ? notCancelable(run) : e);
        });
    }

    /** How long tasks/cancel waits for the run to end before it answers the task as it stands. */
    public static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

    /** Once the run has ended, or after {@code wait} as it stands then. */
    public Uni<Run> awaitEnd(Run run, Duration wait) {
        if (run.status.isTerminal()) {
            return Uni.createFrom().item(run);
        }
        return watch(run).filter(read -> read.status.isTerminal()).toUni()
                .ifNoItem().after(wait).recoverWithUni(() -> inDatabase(() -> read(run)))
                .map(read -> read == null ? run : read);
    }

    /**
     * The run as read from the database at once, then each time {@link RunChanges} says it may have changed (pushed by
     * the status consumer), and every TRIMUS_A2A_STREAM_POLL_INTERVAL anyway, the safety net for a signal that came
     * before its change was stored. A signal that arrives during a read is kept (the latest one), so the read after
     * it sees the change; a read that fails is skipped. Endless: the subscriber decides when it has seen enough.
     */
    public Multi<Run> watch(Run run) {
        Multi<Object> now = Multi.createFrom().item(run.id);
        Multi<Object> pushed = changes.of(run.id).map(id -> id);
        Multi<Object> polled = Multi.createFrom().ticks().startingAfter(config.streamPollInterval())
                .every(config.streamPollInterval()).map(tick -> tick);
        return Multi.createBy().merging().streams(now, pushed, polled)
                .onOverflow().dropPreviousItems()
                .onItem().transformToUniAndConcatenate(signal -> inDatabase(() -> read(run))
                        .onFailure().recoverWithNull());
    }

    private Uni<Run> read(Run run) {
        return TenantTransactions.acrossCompanies(() -> runRows.findInCompany(run.companyId, run.id));
    }

    // Hibernate Reactive wants a safe Vert.x sub-context; the ticks come on a plain thread
    private <T> Uni<T> inDatabase(Supplier<Uni<T>> work) {
        return FreshContext.run(vertx, work);
    }

    private static UUID runId(String taskId) {
        try {
            return taskId == null ? null : UUID.fromString(taskId);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static A2aRefusal notFound() {
        // the id is not echoed: the caller knows it, and a client that reads error texts (the conformance kit takes any
        // "501" in one for "not implemented") must not depend on which random id it sent
        return new A2aRefusal(new TaskNotFoundError(null, "task not found: no task of this agent has that id", null));
    }

    private static A2aRefusal notCancelable(Run run) {
        return new A2aRefusal(new TaskNotCancelableError(null, "task " + run.id + " has already ended ("
                + TaskMapping.state(run.status).asString() + ")", null));
    }

    /** The REST API's refusal of a run as a JSON-RPC error: the request's fault is invalid params. */
    private static A2aRefusal refusal(ProblemException e) {
        String detail = e.field() == null ? e.getMessage() : e.field() + ": " + e.getMessage();
        return new A2aRefusal(e.status() == 400 || e.status() == 413 ? new InvalidParamsError(detail)
                : new InternalError(detail));
    }
}
