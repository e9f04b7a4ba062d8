package io.trimus.run.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** Worker tags granted to companies, always looked up within their company. */
@ApplicationScoped
public class CompanyWorkerTagRepository implements PanacheRepositoryBase<CompanyWorkerTag, CompanyWorkerTag.Key> {

    /** The company's grants, ordered by tag. */
    public Uni<List<CompanyWorkerTag>> listInCompany(UUID companyId) {
        return list("key.companyId = ?1 order by key.tag", companyId);
    }

    /** The grant, or null. */
    public Uni<CompanyWorkerTag> find(UUID companyId, String tag) {
        return findById(new CompanyWorkerTag.Key(companyId, tag));
    }
}
