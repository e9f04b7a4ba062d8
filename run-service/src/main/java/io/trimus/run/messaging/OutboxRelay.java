package io.trimus.run.messaging;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.ConsumeEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.Topics;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.OutboxEvent;
import io.trimus.run.repository.OutboxRepository;
import io.vertx.mutiny.core.eventbus.EventBus;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Publishes outbox rows to Kafka in order, marking each published once the broker acknowledged it. A row
 * that cannot be published stays and is retried on the next pass, so a run accepted while Kafka is down
 * goes out when Kafka is back; a row published twice is recognised by consumers through its event id.
 */
@ApplicationScoped
public class OutboxRelay {
    static final String WAKE_ADDRESS = "trimus.outbox.wake";
    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final URI SOURCE = CloudEventRecords.source("run-service");

    private final Map<String, MutinyEmitter<String>> emitters;
    private final OutboxRepository outbox;
    private final TrimusConfig config;
    private final EventBus bus;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean wokenWhileDraining = new AtomicBoolean();

    OutboxRelay(@Channel(Topics.RUN_REQUESTED) MutinyEmitter<String> requested,
                @Channel(Topics.RUN_CANCEL) MutinyEmitter<String> cancel,
                OutboxRepository outbox, TrimusConfig config, EventBus bus) {
        this.emitters = Map.of(Topics.RUN_REQUESTED, requested, Topics.RUN_CANCEL, cancel);
        this.outbox = outbox;
        this.config = config;
        this.bus = bus;
    }

    /** Asks for a pass soon, e.g. right after a transaction added rows; never blocks the caller. */
    public void wake() {
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
                .flatMap(published -> published == config.outbox().batchSize() || wokenWhileDraining.get()
                        ? drain() : Uni.createFrom().voidItem());
    }

    private Uni<Integer> publishBatch() {
        return Panache.withSession(() -> outbox.nextUnpublished(config.outbox().batchSize()))
                .flatMap(this::publishInOrder);
    }

    private Uni<Integer> publishInOrder(List<OutboxEvent> rows) {
        return Multi.createFrom().iterable(rows)
                .onItem().transformToUniAndConcatenate(row -> publish(row)
                        .call(() -> Panache.withTransaction(() -> outbox.markPublished(row.seq))))
                .collect().asList()
                .map(List::size);
    }

    private Uni<Void> publish(OutboxEvent row) {
        MutinyEmitter<String> emitter = emitters.get(row.topic);
        if (emitter == null) {
            return Uni.createFrom().failure(new IllegalStateException("no channel for topic " + row.topic));
        }
        Message<String> message = CloudEventRecords.message(row.payload,
                Envelope.of(row.id, row.type, SOURCE, row.messageKey, row.createdAt));
        return emitter.sendMessage(message).ifNoItem().after(config.outbox().sendTimeout()).fail();
    }
}
