package io.trimus.run.repository.secret;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** Grants of company secrets to single agents, always looked up within their company. */
@ApplicationScoped
public class CompanySecretGrantRepository implements PanacheRepositoryBase<CompanySecretGrant, CompanySecretGrant.Key> {

    /** Every grant of the company's secrets, ordered by secret name. */
    public Uni<List<CompanySecretGrant>> listInCompany(UUID companyId) {
        return list("key.companyId = ?1 order by key.secretName, key.agentId", companyId);
    }

    /** The grants of one secret. */
    public Uni<List<CompanySecretGrant>> ofSecret(UUID companyId, String secretName) {
        return list("key.companyId = ?1 and key.secretName = ?2 order by key.agentId", companyId, secretName);
    }

    /** Removes every grant of one secret. */
    public Uni<Long> revokeAll(UUID companyId, String secretName) {
        return delete("key.companyId = ?1 and key.secretName = ?2", companyId, secretName);
    }

    /** Which of the named secrets the agent holds a grant for. */
    public Uni<List<CompanySecretGrant>> grantedTo(UUID companyId, UUID agentId, Collection<String> secretNames) {
        return list("key.companyId = ?1 and key.agentId = ?2 and key.secretName in ?3",
                companyId, agentId, secretNames);
    }
}
