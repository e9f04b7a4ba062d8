package io.trimus.run.service.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.run.config.TrimusConfig;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.run.repository.ClusterLocks;
import io.trimus.run.repository.outbox.OutboxEvent;
import io.trimus.run.repository.outbox.OutboxRepository;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Appends events to the outbox inside the caller's transaction; the relay publishes them after commit, woken by
 * {@link StagedRowsAfterCommit} (or at its next poll). An event that could never be one Kafka record is refused here,
 * before anything is stored, rather than by the broker later.
 */
@ApplicationScoped
public class Outbox {
    private final OutboxRepository outbox;
    private final ClusterLocks locks;
    private final ObjectMapper json;
    private final TrimusConfig config;

    Outbox(OutboxRepository outbox, ClusterLocks locks, ObjectMapper json, TrimusConfig config) {
        this.outbox = outbox;
        this.locks = locks;
        this.json = json;
        this.config = config;
    }

    /** The event's key and JSON together exceed TRIMUS_OUTBOX_MAX_RECORD_BYTES. */
    public static final class EventTooLarge extends RuntimeException {
        private final long bytes;
        private final long limit;

        EventTooLarge(long bytes, long limit) {
            super("the event is " + bytes + " bytes, more than the " + limit + " a Kafka record may have");
            this.bytes = bytes;
            this.limit = limit;
        }

        public long bytes() {
            return bytes;
        }

        public long limit() {
            return limit;
        }
    }

    /**
     * Stages {@code event} for {@code topic} under {@code key}; {@code id} is the event (CloudEvent) id. Fails with
     * {@link EventTooLarge} when the record would be larger than the broker takes.
     */
    public Uni<OutboxEvent> add(String topic, String type, UUID id, Object key, Object event) {
        OutboxEvent row = new OutboxEvent();
        row.id = id;
        row.topic = topic;
        row.type = type;
        row.messageKey = key.toString();
        row.createdAt = Instant.now();
        try {
            row.payload = json.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(new IllegalStateException("event cannot be serialised", e));
        }
        long bytes = (long) row.payload.getBytes(StandardCharsets.UTF_8).length
                + row.messageKey.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > config.outbox().maxRecordBytes()) {
            return Uni.createFrom().failure(new EventTooLarge(bytes, config.outbox().maxRecordBytes()));
        }
        return outbox.persist(row).invoke(StagedRowsAfterCommit::noteStaged);
    }

    /** Withdraws an unpublished event of {@code type} for {@code key}; true when one was withdrawn. */
    public Uni<Boolean> withdrawUnpublished(String type, Object key) {
        return outbox.delete("type = ?1 and messageKey = ?2 and publishedAt is null and refusedAt is null", type,
                        key.toString())
                .map(deleted -> deleted > 0);
    }

    /**
     * Hands the next due rows (at most TRIMUS_OUTBOX_BATCH_SIZE, in order) to {@code relay} inside one transaction that
     * holds the relay's cluster lock, so with several replicas one relays at a time and a run's events leave in order;
     * 0 without calling it when another replica holds the lock. A replica that dies mid-batch lets go of the lock, and
     * its unmarked rows go to the next holder.
     */
    public Uni<Integer> relayDue(Function<List<OutboxEvent>, Uni<Integer>> relay) {
        return TenantTransactions.acrossCompanies(() -> locks.tryHold(ClusterLocks.Job.OUTBOX_RELAY)
                .flatMap(held -> !held ? Uni.createFrom().item(0)
                        : outbox.nextDue(config.outbox().batchSize(), Instant.now()).flatMap(relay::apply)));
    }

    /** Marks the row published: the broker acknowledged it. */
    public Uni<Void> published(OutboxEvent row) {
        return TenantTransactions.acrossCompanies(() -> outbox.markPublished(row.seq)).replaceWithVoid();
    }

    /** The row waits until {@code nextAttemptAt}, its {@code attempts}th attempt having failed for a passing reason. */
    public Uni<Void> retryLater(OutboxEvent row, int attempts, Instant nextAttemptAt) {
        return TenantTransactions.acrossCompanies(() -> outbox.markRetry(row.seq, attempts, nextAttemptAt))
                .replaceWithVoid();
    }

    /** Sets the row aside for good with the broker's reason; it is never tried again. */
    public Uni<Void> refuse(OutboxEvent row, String reason) {
        return outbox.markRefused(row.seq, reason).replaceWithVoid();
    }
}
