package io.trimus.run.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** An agent of a company: which adapter runs it and that adapter's validated configuration (JSON text). */
@Entity
@Table(name = "agent")
public class Agent {
    @Id
    public UUID id;
    public UUID companyId;
    public String name;
    public String adapterType;
    @Column(columnDefinition = "text")
    public String adapterConfig;
    public Instant createdAt;
}
