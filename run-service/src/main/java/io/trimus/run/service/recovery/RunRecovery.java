package io.trimus.run.service.recovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.EventTypes;
import io.trimus.events.RunState;
import io.trimus.events.Topics;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.ClusterLocks;
import io.trimus.run.repository.outbox.OutboxRepository;
import io.trimus.run.repository.run.Run;
import io.trimus.run.repository.run.RunRepository;
import io.trimus.run.service.outbox.Outbox;
import io.trimus.run.service.run.RunLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Recovers the runs of adapter processes that stopped renewing their lease ({@link LeaseBook}): a run another live
 * process lists is its; a run RUNNING, or whose start was recorded, may have done part of its work and ends FAILED
 * with the reason (never run twice); a run only DISPATCHED, whose start was never recorded, had nothing begun and is
 * dispatched again (its request published anew, up to TRIMUS_RUN_MAX_DISPATCH_ATTEMPTS in all). One replica at a time
 * recovers; what it decides rests only on what it has read of the lease topic, never on a guess.
 */
@ApplicationScoped
public class RunRecovery {
    private static final Logger LOG = Logger.getLogger(RunRecovery.class);
    private static final int BATCH = 100;
    /** Holders looked at per pass; more are taken up as their runs are recovered. */
    private static final int MAX_HOLDERS = 1000;
    private static final Duration STALL_WARNING = Duration.ofMinutes(1);

    private final LeaseBook book;
    private final RunRepository runs;
    private final OutboxRepository outboxRows;
    private final Outbox outbox;
    private final RunLifecycle lifecycle;
    private final ClusterLocks locks;
    private final ObjectMapper json;
    private final TrimusConfig config;
    private final RecentIds recentStarts = new RecentIds(10_000);
    private final DroppedRuns dropped;
    private volatile boolean warnedStall;

    RunRecovery(LeaseBook book, RunRepository runs, OutboxRepository outboxRows, Outbox outbox, RunLifecycle lifecycle,
                ClusterLocks locks, ObjectMapper json, TrimusConfig config) {
        this.book = book;
        this.runs = runs;
        this.outboxRows = outboxRows;
        this.outbox = outbox;
        this.lifecycle = lifecycle;
        this.locks = locks;
        this.json = json;
        this.config = config;
        this.dropped = new DroppedRuns(config.run().letGoGrace());
    }

    /** Stores that these runs may have begun (a beat listed them as started); those stored lately are skipped. */
    public Uni<Void> recordStarts(List<UUID> started) {
        List<UUID> fresh = recentStarts.unseen(started);
        if (fresh.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return TenantTransactions.acrossCompanies(() -> runs.recordStarts(fresh, Instant.now()))
                .invoke(() -> recentStarts.remember(fresh)).replaceWithVoid();
    }

    @Scheduled(every = "${trimus.run.recovery-interval:5s}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> onTick() {
        book.forgetLongLost();
        dropped.forgetBefore(Instant.now().minus(dropped.grace().multipliedBy(10)));
        warnWhileStalled();
        return recover().onFailure().invoke(e -> LOG.warnf("could not recover the runs of lost adapters: %s",
                        e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Says once per gap, after a minute, that nothing is recovered while this replica cannot read its own beats. */
    private void warnWhileStalled() {
        Optional<Duration> stalled = book.stalledFor();
        if (stalled.isEmpty()) {
            warnedStall = false;
        } else if (!warnedStall && stalled.get().compareTo(STALL_WARNING) > 0) {
            warnedStall = true;
            LOG.warnf("no observer beat of this replica has come back from trimus.adapter.leases for %s: the runs of"
                    + " lost adapter processes are not recovered until one does (is the broker reachable?)",
                    describe(stalled.get()));
        }
    }

    /**
     * Recovers a batch of runs whose holder is lost; returns how many (0 while unsure or another replica recovers).
     * Only runs that are lost are fetched, so runs of holders not judged yet never fill the batch ahead of them.
     */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Integer> recover() {
        if (!book.current()) {
            return Uni.createFrom().item(0);
        }
        Set<String> live = book.live();
        return locks.tryHold(ClusterLocks.Job.RUN_RECOVERY).flatMap(held -> !held ? Uni.createFrom().item(0)
                : lostRuns(live)
                        .flatMap(orphaned -> recoverAll(orphaned, true))
                        .flatMap(lostOnes -> letGo(List.copyOf(live), 0)
                                .map(dropped -> lostOnes + dropped)));
    }

    /** Runs in progress whose holder is lost and that it took at least a grace before what has been read. */
    private Uni<List<Run>> lostRuns(Set<String> live) {
        return runs.holdersOutside(live, MAX_HOLDERS).flatMap(holders -> {
            List<String> lost = holders.stream().filter(book::lost).toList();
            Optional<Instant> takenBefore = book.takenBefore(lost);
            if (lost.isEmpty() || takenBefore.isEmpty()) {
                return Uni.createFrom().item(List.<Run>of());
            }
            return runs.inProgressHeldBy(lost, takenBefore.get(), BATCH).map(candidates -> candidates.stream()
                    .filter(run -> book.lost(run.heldBy, run.heldSince)).toList());
        });
    }

    /**
     * Runs that live processes hold without listing them, one process after the other, each once it has been left out
     * for TRIMUS_RUN_LET_GO_GRACE (its terminal status may still be on its way).
     */
    private Uni<Integer> letGo(List<String> live, int index) {
        if (index == live.size()) {
            return Uni.createFrom().item(0);
        }
        String holder = live.get(index);
        Instant before = Instant.now().minus(book.minimumGrace());
        return runs.heldButNotListed(holder, book.heldBy(holder), before, BATCH)
                .map(left -> dropped.ripe(left, Instant.now()))
                .flatMap(ripe -> recoverAll(ripe, false))
                .flatMap(count -> letGo(live, index + 1).map(rest -> count + rest));
    }

    private Uni<Integer> recoverAll(List<Run> orphaned, boolean holderLost) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Run run : orphaned) {
            chain = chain.chain(() -> recover(run, holderLost));
        }
        return chain.replaceWith(orphaned.size());
    }

    private Uni<Void> recover(Run run, boolean holderLost) {
        String lost = run.heldBy;
        Optional<String> holder = book.liveHolderOf(run.id);
        if (holder.isPresent()) {
            LOG.infof("run %s: %s no longer holds it, %s does", run.id, lost, holder.get());
            run.heldBy = holder.get();
            run.heldSince = Instant.now();
            return Uni.createFrom().voidItem();
        }
        String silence = describe(book.silence(lost, run.heldSince));
        Instant now = Instant.now();
        String gone = !holderLost
                ? "the adapter process " + lost + " that held the run let go of it and no other process holds it"
                : book.heard(lost)
                ? "the adapter process " + lost + " that held the run stopped renewing its lease (silent for " + silence
                + ")"
                : "the adapter process " + lost + " that held the run was never heard on its lease (no beat in the "
                + silence + " since it took the run)";
        if (run.status == RunState.RUNNING || run.startRecordedAt != null) {
            String reason = gone + " after the run " + (run.status == RunState.RUNNING ? "started" : "began to start")
                    + "; it is not started again, since part of its work may have been done";
            LOG.warnf("run %s: %s", run.id, reason);
            lifecycle.finish(run, RunState.FAILED, null, null, reason, now);
            return Uni.createFrom().voidItem();
        }
        if (run.dispatchAttempts >= config.run().maxDispatchAttempts()) {
            String reason = "dispatched " + run.dispatchAttempts + " times, and each time the adapter process holding"
                    + " it (last " + lost + ") was lost before it started";
            LOG.warnf("run %s: %s", run.id, reason);
            lifecycle.finish(run, RunState.FAILED, null, null, reason, now);
            return Uni.createFrom().voidItem();
        }
        return dispatchAgain(run, lost, !holderLost ? "let go of it"
                : book.heard(lost) ? "silent for " + silence : "no beat in the " + silence + " since it took the run");
    }

    private Uni<Void> dispatchAgain(Run run, String lost, String why) {
        return outboxRows.latest(EventTypes.RUN_REQUESTED, run.id.toString()).flatMap(original -> {
            if (original == null) {
                String reason = "the adapter process " + lost + " was lost before the run started, and its request is"
                        + " no longer stored to dispatch it again";
                LOG.warnf("run %s: %s", run.id, reason);
                lifecycle.finish(run, RunState.FAILED, null, null, reason, Instant.now());
                return Uni.createFrom().voidItem();
            }
            UUID eventId = UUID.randomUUID();
            ObjectNode request;
            try {
                request = (ObjectNode) json.readTree(original.payload);
            } catch (JsonProcessingException | ClassCastException e) {
                return Uni.createFrom().failure(new IllegalStateException("stored request of run " + run.id
                        + " is unreadable", e));
            }
            request.put("id", eventId.toString());
            run.dispatchAttempts++;
            run.heldBy = null;
            LOG.warnf("run %s: the adapter process %s that held it was lost (%s) before it started;"
                    + " dispatching it again (attempt %d)", run.id, lost, why, run.dispatchAttempts);
            return outbox.add(Topics.RUN_REQUESTED, EventTypes.RUN_REQUESTED, eventId, run.id, request)
                    .replaceWithVoid();
        });
    }

    private static String describe(Duration d) {
        return d.toSeconds() + " s";
    }
}
