package io.trimus.egress.audit;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** An audit record not yet acknowledged by Kafka: the io.trimus.audit.record.v1 JSON and its record key. */
@Entity
@Table(name = "audit_outbox")
public class AuditOutboxRow {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long seq;
    public UUID id;
    public String messageKey;
    @Column(columnDefinition = "text")
    public String payload;
    public Instant createdAt;
}
