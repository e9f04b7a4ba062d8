package io.trimus.run.service.a2a;

import io.a2a.spec.InternalError;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.TaskState;
import io.smallrye.mutiny.Multi;
import io.trimus.events.RunState;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.Run;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The event stream of a task (message/stream, tasks/resubscribe): the task as it is, then one status-update event per
 * change of its state (completed preceded by its output artifact), the last one final, then the end. Bounded in life
 * (TRIMUS_A2A_STREAM_MAX_LIFE) and in number per company on this instance (TRIMUS_A2A_MAX_STREAMS_PER_COMPANY).
 */
@ApplicationScoped
public class TaskStreams {
    private final A2aTasks tasks;
    private final TrimusConfig.A2a config;
    private final Map<UUID, AtomicInteger> open = new ConcurrentHashMap<>();

    TaskStreams(A2aTasks tasks, TrimusConfig config) {
        this.tasks = tasks;
        this.config = config.a2a();
    }

    /**
     * Takes one of the company's stream places; an {@link A2aRefusal} when all are taken. The place is given back by
     * the stream {@link #follow} returns, when it ends or its caller goes away.
     */
    public Place take(UUID companyId) {
        AtomicInteger count = open.computeIfAbsent(companyId, id -> new AtomicInteger());
        if (count.incrementAndGet() > config.maxStreamsPerCompany()) {
            count.decrementAndGet();
            throw new A2aRefusal(new InternalError("company " + companyId + " already has "
                    + config.maxStreamsPerCompany() + " A2A streams open on this instance (the limit); close one, or"
                    + " poll with tasks/get"));
        }
        return new Place(count);
    }

    /** A stream place of a company, given back once. */
    public static final class Place {
        private final AtomicInteger count;
        private final AtomicBoolean given = new AtomicBoolean();

        private Place(AtomicInteger count) {
            this.count = count;
        }

        /** Gives the place back; later calls do nothing. */
        public void giveBack() {
            if (given.compareAndSet(false, true)) {
                count.decrementAndGet();
            }
        }
    }

    /** The events of the run's task from {@code first} (as just read or started) on; gives {@code place} back at the end. */
    public Multi<StreamingEventKind> follow(Run first, Place place) {
        Multi<StreamingEventKind> head = Multi.createFrom().item(TaskMapping.task(first));
        if (first.status.isTerminal()) {
            return Multi.createBy().concatenating().streams(head, Multi.createFrom().iterable(changeEvents(first)))
                    .onTermination().invoke(place::giveBack);
        }
        AtomicReference<TaskState> shown = new AtomicReference<>(TaskMapping.state(first.status));
        AtomicBoolean ended = new AtomicBoolean();
        Multi<StreamingEventKind> changes = tasks.watch(first)
                .select().first(config.streamMaxLife())
                // up to and including the first read of the run ended; the stream completes at the next poll
                .select().first(run -> !ended.getAndSet(run.status.isTerminal()))
                .filter(run -> shown.getAndSet(TaskMapping.state(run.status)) != TaskMapping.state(run.status))
                .onItem().transformToIterable(TaskStreams::changeEvents);
        return Multi.createBy().concatenating().streams(head, changes).onTermination().invoke(place::giveBack);
    }

    private static List<StreamingEventKind> changeEvents(Run run) {
        return run.status == RunState.SUCCEEDED
                ? List.of(TaskMapping.outputEvent(run), TaskMapping.statusEvent(run))
                : List.of(TaskMapping.statusEvent(run));
    }
}
