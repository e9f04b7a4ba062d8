package io.trimus.run.repository.secret;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** Company secrets, always looked up within their company. */
@ApplicationScoped
public class CompanySecretRepository implements PanacheRepositoryBase<CompanySecret, CompanySecret.Key> {

    /** The company's secrets by name. */
    public Uni<List<CompanySecret>> listInCompany(UUID companyId) {
        return list("key.companyId = ?1 order by key.name", companyId);
    }

    /** The named secrets of the company that exist. */
    public Uni<List<CompanySecret>> named(UUID companyId, Collection<String> names) {
        return list("key.companyId = ?1 and key.name in ?2", companyId, names);
    }
}
