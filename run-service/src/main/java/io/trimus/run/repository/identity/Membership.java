package io.trimus.run.repository.identity;

import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** A user's role (admin, member, viewer) in one company. */
@Entity
@Table(name = "membership")
public class Membership {
    @EmbeddedId
    public Key key;
    public String role;
    public Instant createdAt;

    /** A membership is identified by its user and company. */
    @Embeddable
    public static class Key implements Serializable {
        public UUID userId;
        public UUID companyId;

        public Key() {
        }

        public Key(UUID userId, UUID companyId) {
            this.userId = userId;
            this.companyId = companyId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(userId, k.userId) && Objects.equals(companyId, k.companyId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(userId, companyId);
        }
    }
}
