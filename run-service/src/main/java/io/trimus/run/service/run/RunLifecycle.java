package io.trimus.run.service.run;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.EventTypes;
import io.trimus.events.OutputTail;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.RunUsage;
import io.trimus.events.secrets.Redactor;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.outbox.OutboxEvent;
import io.trimus.run.repository.run.ProcessedEventRepository;
import io.trimus.run.repository.run.Run;
import io.trimus.run.repository.run.RunRepository;
import io.trimus.run.service.outbox.Outbox;
import io.trimus.run.service.secret.SecretService;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.UUID;

/**
 * How a run moves once it is queued: forward on the adapters' status events (idempotent, only forward), FAILED when
 * Kafka refused its request for good, and the one place a run reaches a terminal state, whoever ends it (adapter,
 * cancel, recovery, stale sweep).
 */
@ApplicationScoped
public class RunLifecycle {
    private static final Logger LOG = Logger.getLogger(RunLifecycle.class);

    private final RunRepository runs;
    private final ProcessedEventRepository processedEvents;
    private final Outbox outbox;
    private final SecretService secrets;
    private final TrimusConfig config;

    RunLifecycle(RunRepository runs, ProcessedEventRepository processedEvents, Outbox outbox, SecretService secrets,
                 TrimusConfig config) {
        this.runs = runs;
        this.processedEvents = processedEvents;
        this.outbox = outbox;
        this.secrets = secrets;
        this.config = config;
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
        if (run == null || (event.output() == null && event.error() == null && event.rawOutput() == null)) {
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
            default -> {
                finish(run, event.status(), event.exitCode(), redactor.redact(event.output()),
                        redactor.redact(event.error()), at);
                keepCliResult(run, redactor.redact(event.rawOutput()), event.usage());
            }
        }
    }

    /**
     * An agent CLI run's raw stream (capped and redacted like its output) and the usage its CLI reported, kept once as
     * the run ends; nothing for other runs. A late event finds the run terminal and never gets here.
     */
    private void keepCliResult(Run run, String rawOutput, RunUsage usage) {
        run.rawOutput = OutputTail.of(rawOutput, config.run().outputMaxBytes());
        run.keepUsage(usage);
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

    /** Ends a run: the one place a run reaches a terminal state, whoever ends it (adapter, cancel, stale sweep). */
    public void finish(Run run, RunState state, Integer exitCode, String output, String error, Instant at) {
        run.status = state;
        run.exitCode = exitCode;
        run.output = OutputTail.of(output, config.run().outputMaxBytes());
        run.error = error;
        run.finishedAt = at;
    }
}
