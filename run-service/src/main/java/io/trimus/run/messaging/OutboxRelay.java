package io.trimus.run.messaging;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.ConsumeEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.Topics;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.outbox.OutboxEvent;
import io.trimus.run.service.outbox.Outbox;
import io.trimus.run.service.outbox.OutboxStaged;
import io.trimus.run.service.run.RunLifecycle;
import io.vertx.mutiny.core.eventbus.EventBus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Publishes outbox rows to Kafka in order, marking each published once the broker acknowledged it. A row that
 * cannot be published for a passing reason stays and is retried with a growing wait, so a run accepted while Kafka
 * is down goes out when Kafka is back; a row published twice is recognised by consumers through its event id. A
 * row the broker refuses for good (too large, invalid) ends its run FAILED with the reason and is set aside: no row
 * holds up the rows behind it, one run's events stay in order.
 */
@ApplicationScoped
public class OutboxRelay {
    static final String WAKE_ADDRESS = "trimus.outbox.wake";
    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final URI SOURCE = CloudEventRecords.source("run-service");

    private final Map<String, MutinyEmitter<String>> emitters;
    private final Outbox outbox;
    private final RunLifecycle runs;
    private final TrimusConfig config;
    private final EventBus bus;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean wokenWhileDraining = new AtomicBoolean();

    OutboxRelay(@Channel(Topics.RUN_REQUESTED) MutinyEmitter<String> requested,
                @Channel(Topics.RUN_CANCEL) MutinyEmitter<String> cancel,
                @Channel(Topics.AUDIT) MutinyEmitter<String> audit,
                Outbox outbox, RunLifecycle runs, TrimusConfig config, EventBus bus) {
        this.emitters = Map.of(Topics.RUN_REQUESTED, requested, Topics.RUN_CANCEL, cancel, Topics.AUDIT, audit);
        this.outbox = outbox;
        this.runs = runs;
        this.config = config;
        this.bus = bus;
    }

    /** Asks for a pass soon: a transaction that staged rows has just committed. Never blocks the committer. */
    void onStaged(@Observes OutboxStaged staged) {
        bus.send(WAKE_ADDRESS, "");
    }

    @ConsumeEvent(WAKE_ADDRESS)
    Uni<Void> onWake(String ignored) {
        return drain();
    }

    @Scheduled(every = "${trimus.outbox.poll-interval:1s}", delayed = "2s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> onTick() {
        return drain();
    }

    /** One pass at a time; a wake during a pass makes the pass go round again. */
    Uni<Void> drain() {
        if (!draining.compareAndSet(false, true)) {
            wokenWhileDraining.set(true);
            return Uni.createFrom().voidItem();
        }
        wokenWhileDraining.set(false);
        return publishBatch()
                .onFailure().invoke(e -> LOG.warnf("Outbox not fully published, will retry: %s", e.getMessage()))
                .onFailure().recoverWithItem(0)
                .eventually(() -> draining.set(false))
                .flatMap(settled -> settled == config.outbox().batchSize() || wokenWhileDraining.get()
                        ? drain() : Uni.createFrom().voidItem());
    }

    /**
     * One batch under the relay's cluster lock ({@link Outbox#relayDue}); a replica that finds the lock taken does
     * nothing (the holder publishes its rows at its next pass, within TRIMUS_OUTBOX_POLL_INTERVAL). Rows published
     * again after a replica died mid-batch are recognised by consumers through their event id.
     */
    private Uni<Integer> publishBatch() {
        return outbox.relayDue(rows -> publishFrom(rows, 0));
    }

    /**
     * Publishes the rows one after another, each marked once the broker acknowledged it. A row refused for good is
     * set aside and the pass goes on; at a row that may go out later the pass stops (the broker is likely away for
     * every row), and that row waits out its backoff while the next passes publish the rows behind it.
     *
     * @return how many rows were settled, published or set aside
     */
    private Uni<Integer> publishFrom(List<OutboxEvent> rows, int index) {
        if (index == rows.size()) {
            return Uni.createFrom().item(index);
        }
        OutboxEvent row = rows.get(index);
        return publish(row)
                .onItemOrFailure().transformToUni((ignored, failure) -> failure == null
                        ? outbox.published(row).replaceWith(true)
                        : settleFailed(row, PublishFailure.of(failure)))
                .flatMap(goOn -> goOn ? publishFrom(rows, index + 1) : Uni.createFrom().item(index));
    }

    /** True when the pass may go on: the row was refused for good and is out of the way. */
    private Uni<Boolean> settleFailed(OutboxEvent row, PublishFailure failure) {
        if (failure.forGood()) {
            return runs.refusedForGood(row, failure.reason()).replaceWith(true);
        }
        int attempts = row.attempts + 1;
        Duration wait = backoff(attempts);
        LOG.warnf("Outbox event %s (%s of %s) not published, next attempt in %s: %s", row.seq, row.type,
                row.messageKey, wait, failure.reason());
        return outbox.retryLater(row, attempts, Instant.now().plus(wait)).replaceWith(false);
    }

    /** The poll interval, doubled with each failed attempt, up to TRIMUS_OUTBOX_RETRY_MAX_BACKOFF. */
    private Duration backoff(int attempts) {
        Duration wait = config.outbox().pollInterval().multipliedBy(1L << Math.min(attempts - 1, 20));
        return wait.compareTo(config.outbox().retryMaxBackoff()) > 0 ? config.outbox().retryMaxBackoff() : wait;
    }

    private Uni<Void> publish(OutboxEvent row) {
        MutinyEmitter<String> emitter = emitters.get(row.topic);
        if (emitter == null) {
            return Uni.createFrom().failure(new PublishFailure.NoChannel(row.topic));
        }
        Message<String> message = CloudEventRecords.message(row.payload,
                Envelope.of(row.id, row.type, SOURCE, row.messageKey, row.createdAt));
        return Uni.createFrom().deferred(() -> emitter.sendMessage(message))
                .ifNoItem().after(config.outbox().sendTimeout()).fail();
    }
}
