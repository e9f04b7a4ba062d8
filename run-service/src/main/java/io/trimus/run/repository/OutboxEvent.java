package io.trimus.run.repository;

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
 * accepted run is never lost even while Kafka is down. {@code seq} gives the publishing order.
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
}
