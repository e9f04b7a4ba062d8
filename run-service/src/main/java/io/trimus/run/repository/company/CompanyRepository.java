package io.trimus.run.repository.company;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** Companies by id, and the list of all companies in creation order. */
@ApplicationScoped
public class CompanyRepository implements PanacheRepositoryBase<Company, UUID> {

    /**
     * Up to {@code limit} companies in creation order (oldest first), those after {@code after} when given: keyset
     * paging on (created_at, id), so a page costs the same however deep it is.
     */
    public Uni<List<Company>> page(Company after, int limit) {
        var query = after == null
                ? find("order by createdAt, id")
                : find("createdAt > ?1 or (createdAt = ?1 and id > ?2) order by createdAt, id", after.createdAt,
                        after.id);
        return query.page(0, limit).list();
    }

    /** Like {@link #page}, among the companies {@code among} only (a caller's own companies). */
    public Uni<List<Company>> pageAmong(List<UUID> among, Company after, int limit) {
        if (among.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        var query = after == null
                ? find("id in ?1 order by createdAt, id", among)
                : find("id in ?1 and (createdAt > ?2 or (createdAt = ?2 and id > ?3)) order by createdAt, id", among,
                        after.createdAt, after.id);
        return query.page(0, limit).list();
    }
}
