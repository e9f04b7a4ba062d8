package io.trimus.egress.policy;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/** Companies' stored egress policies. */
@ApplicationScoped
public class EgressPolicyRepository implements PanacheRepositoryBase<EgressPolicy, UUID> {
    private static final EgressModeColumn MODE = new EgressModeColumn();

    /**
     * Stores {@code mode} as the company's policy inside the current transaction, with the next revision; one upsert,
     * so concurrent first changes of a company never collide on its key.
     */
    public Uni<EgressPolicy> set(UUID companyId, EgressMode mode) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.egress_policy as p (company_id, mode, revision, updated_at) "
                        + "values (?1, ?2, 1, now()) on conflict (company_id) do update "
                        + "set mode = excluded.mode, revision = p.revision + 1, updated_at = now() "
                        + "returning company_id, mode, revision, updated_at", EgressPolicy.class)
                .setParameter(1, companyId)
                .setParameter(2, MODE.convertToDatabaseColumn(mode))
                .getSingleResult());
    }
}
