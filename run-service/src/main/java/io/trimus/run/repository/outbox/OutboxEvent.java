package io.trimus.run.repository.outbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * An event waiting to be published, written in the same transaction as the change it announces, so an
 * accepted run is never lost even while Kafka is down. {@code seq} gives the publishing order; a row ends either
 * published or refused (the broker will never take it, {@code refusal} says why).
 */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long seq;
    public UUID id;
    public String topic;
    public String messageKey;
    public String type;
    @Column(columnDefinition = "text")
    public String payload;
    public Instant createdAt;
    public Instant publishedAt;
    /** Failed publishing attempts so far; the wait before the next one grows with them. */
    public int attempts;
    /** Not tried again before this, after a failure that may pass (broker down, timeout); null: at once. */
    public Instant nextAttemptAt;
    /** When the broker refused it for good; it is never tried again. */
    public Instant refusedAt;
    @Column(columnDefinition = "text")
    public String refusal;
}
