package io.trimus.run.repository.worker;

import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** The operator's grant of one worker tag to one company: its remote agents may run on workers of that tag. */
@Entity
@Table(name = "company_worker_tag")
public class CompanyWorkerTag {
    @EmbeddedId
    public Key key;
    public Instant grantedAt;

    public CompanyWorkerTag() {
    }

    /** A grant is identified by its company and tag. */
    @Embeddable
    public static class Key implements Serializable {
        public UUID companyId;
        public String tag;

        public Key() {
        }

        public Key(UUID companyId, String tag) {
            this.companyId = companyId;
            this.tag = tag;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(companyId, k.companyId) && Objects.equals(tag, k.tag);
        }

        @Override
        public int hashCode() {
            return Objects.hash(companyId, tag);
        }
    }
}
