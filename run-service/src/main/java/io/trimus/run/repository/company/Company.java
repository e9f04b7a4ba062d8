package io.trimus.run.repository.company;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A tenant: every agent and run belongs to exactly one company. */
@Entity
@Table(name = "company")
public class Company {
    @Id
    public UUID id;
    public String name;
    public Instant createdAt;

    /** A new company, not yet persisted. */
    public static Company named(String name) {
        Company c = new Company();
        c.id = UUID.randomUUID();
        c.name = name;
        c.createdAt = Instant.now();
        return c;
    }
}
