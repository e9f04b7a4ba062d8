package io.trimus.run.repository.worker;

import io.quarkus.hibernate.reactive.panache.Panache;
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

    /**
     * Grants the tag unless the company holds it already, inside the current transaction; two concurrent grants of one
     * tag both succeed and the first one's time stays.
     */
    public Uni<Void> grantIfAbsent(UUID companyId, String tag) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into run.company_worker_tag (company_id, tag, granted_at) values (?1, ?2,"
                        + " now()) on conflict (company_id, tag) do nothing")
                .setParameter(1, companyId)
                .setParameter(2, tag)
                .executeUpdate())
                .replaceWithVoid();
    }

    /** The grant, or null. */
    public Uni<CompanyWorkerTag> grantOf(UUID companyId, String tag) {
        return findById(new CompanyWorkerTag.Key(companyId, tag));
    }
}
