package io.trimus.egress.allowlist;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/** Allowlist entries of companies, with the revision of each company's list. */
@ApplicationScoped
public class AllowlistRepository implements PanacheRepositoryBase<AllowlistEntry, AllowlistEntry.Key> {

    /** The company's entries, sorted; empty when it never stored a list. */
    public Uni<List<String>> entriesOf(UUID companyId) {
        return find("select entry from AllowlistEntry where companyId = ?1 order by entry", companyId)
                .project(String.class).list();
    }

    /**
     * Makes {@code entries} the company's list inside the current transaction and returns the new revision. The
     * revision upsert locks the company's row first, so concurrent replacements of one list run one after the other;
     * entries that stay keep their created_at.
     */
    public Uni<Long> replace(UUID companyId, List<String> entries) {
        String[] wanted = entries.toArray(String[]::new);
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.allowlist as a (company_id, revision, updated_at) "
                        + "values (?1, 1, now()) on conflict (company_id) do update "
                        + "set revision = a.revision + 1, updated_at = now() returning revision",
                        Long.class)
                .setParameter(1, companyId)
                .getSingleResult()
                .call(revision -> session
                        .createNativeQuery("delete from egress.allowlist_entry "
                                + "where company_id = ?1 and entry <> all (cast(?2 as varchar[]))")
                        .setParameter(1, companyId)
                        .setParameter(2, wanted)
                        .executeUpdate())
                .call(revision -> session
                        .createNativeQuery("insert into egress.allowlist_entry (company_id, entry, created_at) "
                                + "select ?1, e, now() from unnest(cast(?2 as varchar[])) as e "
                                + "on conflict (company_id, md5(entry)) do nothing")
                        .setParameter(1, companyId)
                        .setParameter(2, wanted)
                        .executeUpdate()));
    }
}
