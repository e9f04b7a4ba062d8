package io.trimus.run.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/** Built-in accounts, found by their (lower-cased) email. */
@ApplicationScoped
public class UserAccountRepository implements PanacheRepositoryBase<UserAccount, UUID> {

    /** The account of {@code email} (lower-cased by the caller), or null. */
    public Uni<UserAccount> findByEmail(String email) {
        return find("email", email).firstResult();
    }
}
