package io.trimus.run.service.a2a;

import io.a2a.spec.InternalError;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.TaskState;
import io.smallrye.mutiny.Multi;
import io.trimus.commons.access.StreamAccess;
import io.trimus.commons.streams.Places;
import io.trimus.commons.streams.TooManyStreams;
import io.trimus.events.RunState;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.run.Run;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The event stream of a task (message/stream, tasks/resubscribe): the task as it is, then one status-update event per
 * change of its state (completed preceded by its output artifact), the last one final, then the end. Bounded in life
 * (TRIMUS_A2A_STREAM_MAX_LIFE), in number per company on this instance (TRIMUS_A2A_MAX_STREAMS_PER_COMPANY) and per
 * credential (TRIMUS_STREAMS_MAX_PER_CALLER), where blocking message/send calls count as streams too, and by its
 * caller's access, asked again every TRIMUS_STREAMS_RECHECK.
 */
@ApplicationScoped
public class TaskStreams {
    private final A2aTasks tasks;
    private final TrimusConfig.A2a config;
    private final Places<UUID> companies = new Places<>();

    TaskStreams(A2aTasks tasks, TrimusConfig config) {
        this.tasks = tasks;
        this.config = config.a2a();
    }

    /**
     * Takes one of the company's places and one of the caller's for a stream or a blocking send; an {@link A2aRefusal}
     * when all of either are taken. The places are given back when the stream {@link #follow} returns (or the wait the
     * lease guards) ends, or by {@link StreamAccess.Lease#giveBack()}.
     */
    public StreamAccess.Lease take(UUID companyId, StreamAccess.Holder caller) {
        Places.Place company = companies.take(companyId, config.maxStreamsPerCompany())
                .orElseThrow(() -> new A2aRefusal(new InternalError("company " + companyId + " already has "
                        + config.maxStreamsPerCompany() + " A2A streams and blocking sends open on this instance (the"
                        + " limit, TRIMUS_A2A_MAX_STREAMS_PER_COMPANY); close one, or poll with tasks/get")));
        try {
            return caller.take().and(company);
        } catch (TooManyStreams e) {
            company.giveBack();
            throw new A2aRefusal(new InternalError(e.getMessage() + "; A2A blocking sends count as streams; or poll"
                    + " with tasks/get"));
        }
    }

    /**
     * The events of the run's task from {@code first} (as just read or started) on, while the caller stays admitted;
     * gives the lease's places back at the end.
     */
    public Multi<StreamingEventKind> follow(Run first, StreamAccess.Lease lease) {
        Multi<StreamingEventKind> head = Multi.createFrom().item(TaskMapping.task(first));
        if (first.status.isTerminal()) {
            return lease.guard(Multi.createBy().concatenating().streams(head,
                    Multi.createFrom().iterable(changeEvents(first))));
        }
        AtomicReference<TaskState> shown = new AtomicReference<>(TaskMapping.state(first.status));
        AtomicBoolean ended = new AtomicBoolean();
        Multi<StreamingEventKind> changes = tasks.watch(first)
                .select().first(config.streamMaxLife())
                // up to and including the first read of the run ended: that read comes twice, so the stream ends at
                // once (no further change is pushed to wake it); the repeat shows no new state and sends nothing
                .onItem().transformToIterable(run -> run.status.isTerminal() ? List.of(run, run) : List.of(run))
                .select().first(run -> !ended.getAndSet(run.status.isTerminal()))
                .filter(run -> shown.getAndSet(TaskMapping.state(run.status)) != TaskMapping.state(run.status))
                .onItem().transformToIterable(TaskStreams::changeEvents);
        return lease.guard(Multi.createBy().concatenating().streams(head, changes));
    }

    private static List<StreamingEventKind> changeEvents(Run run) {
        return run.status == RunState.SUCCEEDED
                ? List.of(TaskMapping.outputEvent(run), TaskMapping.statusEvent(run))
                : List.of(TaskMapping.statusEvent(run));
    }
}
