package io.trimus.run.repository.secret;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A company secret as stored: its name and the ciphertext of its value, never the value itself, and whether every
 * agent of the company may use it (else only those with a {@link CompanySecretGrant}), and, for a masked secret, the
 * hosts and headers the egress proxy may swap its real value into (null when the secret is plain).
 */
@Entity
@Table(name = "company_secret")
public class CompanySecret {
    @EmbeddedId
    public Key key;
    @Column(columnDefinition = "bytea")
    public byte[] ciphertext;
    public boolean allAgents;
    public boolean masked;
    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "text[]")
    public String[] hosts;
    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(columnDefinition = "text[]")
    public String[] headers;

    /** The hosts of a masked secret; null when it is plain. */
    public List<String> hostList() {
        return hosts == null ? null : List.of(hosts);
    }

    /** The headers of a masked secret; null when it is plain. */
    public List<String> headerList() {
        return headers == null ? null : List.of(headers);
    }
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
