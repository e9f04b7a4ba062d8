package io.trimus.run.repository.audit;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.UUID;

/**
 * One stored audit record: the io.trimus.audit.record.v1 JSON as it was published, and beside it the company, time and
 * action the API filters and pages on. Kept after the company is gone.
 */
@Entity
@Table(name = "audit_record")
public class AuditEntry {
    @Id
    public UUID id;
    /** Null for a record of the platform. */
    public UUID companyId;
    public Instant occurredAt;
    public String action;
    @Column(columnDefinition = "jsonb")
    @JdbcTypeCode(SqlTypes.JSON)
    public JsonNode record;
}
