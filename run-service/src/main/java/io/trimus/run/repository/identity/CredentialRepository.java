package io.trimus.run.repository.identity;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Credentials by the hash of their secret, and API tokens by company. */
@ApplicationScoped
public class CredentialRepository implements PanacheRepositoryBase<Credential, UUID> {

    /** The credential whose secret hashes to {@code hash}, active or not, or null. */
    public Uni<Credential> findByHash(byte[] hash) {
        return find("secretHash", hash).firstResult();
    }

    /** The company's API tokens (revoked ones too), oldest first. */
    public Uni<List<Credential>> tokensOf(UUID companyId) {
        return list("kind = ?1 and companyId = ?2 order by createdAt", Credential.TOKEN, companyId);
    }

    /** The operator tokens (revoked ones too), oldest first. */
    public Uni<List<Credential>> operatorTokens() {
        return list("kind = ?1 and role = ?2 order by createdAt", Credential.TOKEN, Credential.OPERATOR_ROLE);
    }

    /** The company token {@code id}, or null when it is not one of the company's. */
    public Uni<Credential> tokenOf(UUID companyId, UUID id) {
        return find("id = ?1 and kind = ?2 and companyId = ?3", id, Credential.TOKEN, companyId).firstResult();
    }

    /** The operator token {@code id}, or null. */
    public Uni<Credential> operatorToken(UUID id) {
        return find("id = ?1 and kind = ?2 and role = ?3", id, Credential.TOKEN, Credential.OPERATOR_ROLE)
                .firstResult();
    }

    /** The operator token called {@code name}, or null. */
    public Uni<Credential> operatorTokenNamed(String name) {
        return find("kind = ?1 and role = ?2 and name = ?3 and revokedAt is null", Credential.TOKEN,
                Credential.OPERATOR_ROLE, name).firstResult();
    }

    /** Revokes the user's open sessions but the newest {@code keep}. */
    public Uni<Integer> revokeSessionsBeyond(UUID userId, int keep, Instant at) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("update run.credential set"
                        + " revoked_at = ?1 where id in (select id from run.credential where user_id = ?2 and kind ="
                        + " 'session' and revoked_at is null order by created_at desc offset ?3)")
                .setParameter(1, at).setParameter(2, userId).setParameter(3, keep).executeUpdate());
    }

    /** Revokes every unrevoked credential of the user of the kind (its sessions or its setup links). */
    public Uni<Integer> revokeAllOf(UUID userId, String kind, Instant at) {
        return update("revokedAt = ?1 where userId = ?2 and kind = ?3 and revokedAt is null", at, userId, kind);
    }
}
