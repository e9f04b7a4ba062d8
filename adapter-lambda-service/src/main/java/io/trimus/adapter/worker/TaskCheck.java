package io.trimus.adapter.worker;

import io.trimus.adapter.dispatch.RecentIds;
import io.trimus.adapter.run.secrets.DispatchKeys;
import io.trimus.events.RemoteTask;
import io.trimus.events.secrets.TaskMacs;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.UUID;

/**
 * Whether a worker may execute a task it read: only one run-service issued for exactly this company, agent, run,
 * worker tag and inner config (its issuer MAC), handed on by a dispatcher that holds the dispatch key (the task MAC,
 * which also covers the claim deadline), before that deadline, for a run this worker has not taken before.
 *
 * <p>A forged task (a MAC missing or wrong: another company, agent, tag or config, a stretched deadline, another
 * key) is logged as {@code ANOMALY forged remote task} and dropped: nothing starts, no run status is sent, and its run
 * id is not remembered, so a forger can neither fail nor pre-empt the real run of that id. The task's company stands
 * for the operator's grant: run-service issues a remote run only while its company holds the tag.
 */
@Singleton
public class TaskCheck {
    private static final Logger LOG = Logger.getLogger(TaskCheck.class);
    /** Run ids remembered against replays; older ones also fall past their claim deadline. */
    static final int REMEMBERED = 10_000;

    /** What to do with a task. */
    public enum Verdict {
        /** Issued by run-service, stamped by a dispatcher, in time and new here: claim and execute it. */
        EXECUTE,
        /** Not a task for this worker to run; skip it without a word to anyone but the log. */
        REFUSE
    }

    private final TaskMacs macs;
    private final Clock clock;
    private final RecentIds<Boolean> taken = new RecentIds<>(REMEMBERED);

    @Inject
    public TaskCheck(DispatchKeys keys, Clock clock) {
        this.macs = keys.macs().orElse(null);
        this.clock = clock;
    }

    /**
     * Judges a task read on the consumer of {@code tag}; records nothing (see {@link #taken}). A task of another tag is
     * refused without a word: it is the other tag's workers' business.
     */
    public Verdict judge(RemoteTask task, String tag) {
        if (!tag.equals(task.workerTag())) {
            return Verdict.REFUSE;   // another tag's task: each tag's group reads the whole topic
        }
        if (task.request() == null || task.runId() == null || !task.runId().equals(task.request().runId())) {
            return forged(task, tag, "its run id does not match its request's");
        }
        if (macs == null || !macs.stamped(task)) {
            return forged(task, tag, "the task MAC is missing or wrong");
        }
        if (!macs.issued(task.request(), tag)) {
            return forged(task, tag, "run-service's issuer MAC is missing or does not cover this company, agent,"
                    + " run, tag and config");
        }
        if (task.claimBy() == null || !clock.instant().isBefore(task.claimBy())) {
            LOG.warnf("skipped the task of run %s: its claim deadline %s has passed, the dispatcher has failed it",
                    task.runId(), task.claimBy());
            return Verdict.REFUSE;
        }
        synchronized (taken) {
            if (taken.contains(task.runId())) {
                LOG.infof("skipped task %s of run %s: this worker has taken that run already (a replay or a second"
                        + " dispatch)", task.id(), task.runId());
                return Verdict.REFUSE;
            }
        }
        return Verdict.EXECUTE;
    }

    /**
     * Records that this worker claimed the task's run; false when it had already (two tags' consumers raced on
     * copies of one run), in which case it must not be started again.
     */
    public boolean taken(RemoteTask task) {
        synchronized (taken) {
            return taken.add(task.runId(), Boolean.TRUE);
        }
    }

    private static Verdict forged(RemoteTask task, String tag, String why) {
        UUID runId = task.runId();
        UUID company = task.request() == null ? null : task.request().companyId();
        LOG.warnf("ANOMALY forged remote task %s on tag %s refused: %s (claims run %s of company %s); nothing was"
                + " started or reported", task.id(), tag, why, runId, company);
        return Verdict.REFUSE;
    }
}
