package io.trimus.egress.ca;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;

/** The stored egress CAs; at most one is active (a unique index on the rows not retired). */
@ApplicationScoped
public class EgressCaRepository implements PanacheRepositoryBase<StoredAuthority, String> {

    /** The active CA, or null when there is none yet. */
    public Uni<StoredAuthority> active() {
        return find("retiredAt is null").firstResult();
    }

    /**
     * Stores {@code authority} as the active CA unless another one is active: false when another replica (or a
     * concurrent rotation) stored one first; the caller then reads that one.
     */
    public Uni<Boolean> insertIfNoneActive(StoredAuthority authority) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.egress_ca (fingerprint, certificate_pem, key_ciphertext,"
                        + " created_at) values (?1, ?2, ?3, ?4) on conflict do nothing")
                .setParameter(1, authority.fingerprint)
                .setParameter(2, authority.certificatePem)
                .setParameter(3, authority.keyCiphertext)
                .setParameter(4, authority.createdAt)
                .executeUpdate())
                .map(inserted -> inserted > 0);
    }

    /** Marks the active CA retired at {@code at}. */
    public Uni<Integer> retireActive(Instant at) {
        return update("retiredAt = ?1 where retiredAt is null", at);
    }

    /** Every stored CA, newest first. */
    public Uni<List<StoredAuthority>> newestFirst() {
        return listAll(Sort.descending("createdAt").and("fingerprint"));
    }
}
