package io.trimus.run.repository.identity;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.util.UUID;

/** Built-in accounts, found by their (lower-cased) email. */
@ApplicationScoped
public class UserAccountRepository implements PanacheRepositoryBase<UserAccount, UUID> {

    /** The account of {@code email} (lower-cased by the caller), or null. */
    public Uni<UserAccount> findByEmail(String email) {
        return find("email", email).firstResult();
    }

    /**
     * The account of {@code email}, or null, its row locked (FOR UPDATE) until the transaction ends: for a change of
     * who vouches for it, so no password sign-in opens a session in between ({@link #passwordHashHeld}).
     */
    public Uni<UserAccount> lockByEmail(String email) {
        return find("email", email).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /**
     * The account's password hash as committed now (null: none, or no such account), its row held (FOR SHARE) until
     * the transaction ends, so a password sign-in opens its session only while the password it checked still holds.
     */
    public Uni<String> passwordHashHeld(UUID id) {
        return Panache.getSession().flatMap(session -> session.createNativeQuery("select password_hash from"
                + " run.app_user where id = ?1 for share", String.class).setParameter(1, id).getSingleResultOrNull());
    }
}
