package io.trimus.egress.allowlist;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One normalised allowlist entry of a company: an exact name or a {@code *.suffix} wildcard, maybe followed by
 * {@code :port} ({@link AllowlistRule}).
 */
@Entity
@Table(name = "allowlist_entry")
@IdClass(AllowlistEntry.Key.class)
public class AllowlistEntry {
    @Id
    public UUID companyId;
    @Id
    public String entry;
    public Instant createdAt;

    /** The primary key: an entry is unique within its company. */
    public static class Key implements Serializable {
        public UUID companyId;
        public String entry;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key other && Objects.equals(companyId, other.companyId)
                    && Objects.equals(entry, other.entry);
        }

        @Override
        public int hashCode() {
            return Objects.hash(companyId, entry);
        }
    }
}
