package io.trimus.run.repository.agent;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.UUID;

/** An agent of a company: which adapter runs it and that adapter's validated configuration (a jsonb column). */
@Entity
@Table(name = "agent")
public class Agent {
    @Id
    public UUID id;
    public UUID companyId;
    public String name;
    public String adapterType;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb")
    public JsonNode adapterConfig;
    public Instant createdAt;
    /** Whether the company serves the agent over A2A (issue 19): its agent card and JSON-RPC endpoint exist. */
    public boolean a2aPublished;
}
