package io.trimus.run.repository.identity;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** Users' roles in companies. */
@ApplicationScoped
public class MembershipRepository implements PanacheRepositoryBase<Membership, Membership.Key> {

    /** Every company role of the user. */
    public Uni<List<Membership>> ofUser(UUID userId) {
        return list("key.userId", userId);
    }

    /** The company's members, oldest first. */
    public Uni<List<Membership>> inCompany(UUID companyId) {
        return list("key.companyId = ?1 order by createdAt", companyId);
    }
}
