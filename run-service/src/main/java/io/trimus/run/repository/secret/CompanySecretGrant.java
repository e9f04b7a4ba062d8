package io.trimus.run.repository.secret;

import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.util.Objects;
import java.util.UUID;

/** One agent's grant of a company secret that is not for all of the company's agents. */
@Entity
@Table(name = "company_secret_grant")
public class CompanySecretGrant {
    @EmbeddedId
    public Key key;

    public CompanySecretGrant() {
    }

    public CompanySecretGrant(UUID companyId, String secretName, UUID agentId) {
        this.key = new Key(companyId, secretName, agentId);
    }

    /** A grant is identified by the secret (company and name) and the agent. */
    @Embeddable
    public static class Key implements Serializable {
        public UUID companyId;
        public String secretName;
        public UUID agentId;

        public Key() {
        }

        public Key(UUID companyId, String secretName, UUID agentId) {
            this.companyId = companyId;
            this.secretName = secretName;
            this.agentId = agentId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(companyId, k.companyId)
                    && Objects.equals(secretName, k.secretName) && Objects.equals(agentId, k.agentId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(companyId, secretName, agentId);
        }
    }
}
