package io.trimus.run.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.run.repository.OutboxEvent;
import io.trimus.run.repository.OutboxRepository;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.UUID;

/** Appends events to the outbox inside the caller's transaction; the relay publishes them after commit. */
@ApplicationScoped
public class Outbox {
    private final OutboxRepository outbox;
    private final ObjectMapper json;

    Outbox(OutboxRepository outbox, ObjectMapper json) {
        this.outbox = outbox;
        this.json = json;
    }

    /** Stages {@code event} for {@code topic} under {@code key}; {@code id} is the event (CloudEvent) id. */
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
        return outbox.persist(row);
    }

    /** Withdraws an unpublished event of {@code type} for {@code key}; true when one was withdrawn. */
    public Uni<Boolean> withdrawUnpublished(String type, Object key) {
        return outbox.delete("type = ?1 and messageKey = ?2 and publishedAt is null", type, key.toString())
                .map(deleted -> deleted > 0);
    }
}
