package io.trimus.run.repository;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A company secret as stored: its name and the ciphertext of its value, never the value itself, and whether every
 * agent of the company may use it (else only those with a {@link CompanySecretGrant}).
 */
@Entity
@Table(name = "company_secret")
public class CompanySecret {
    @EmbeddedId
    public Key key;
    @Column(columnDefinition = "bytea")
    public byte[] ciphertext;
    public boolean allAgents;
    public Instant createdAt;
    public Instant updatedAt;

    /** A secret is identified by its company and name. */
    @Embeddable
    public static class Key implements Serializable {
        public UUID companyId;
        public String name;

        public Key() {
        }

        public Key(UUID companyId, String name) {
            this.companyId = companyId;
            this.name = name;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(companyId, k.companyId) && Objects.equals(name, k.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(companyId, name);
        }
    }
}
