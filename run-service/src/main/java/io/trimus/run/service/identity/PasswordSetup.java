package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.events.AuditRecord;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import io.trimus.run.repository.identity.UserAccount;
import io.trimus.run.repository.identity.UserAccountRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.identity.password.PasswordChecks;
import io.trimus.run.service.identity.password.Passwords;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;

/**
 * First passwords of built-in accounts, set through the one-time setup links {@link SetupLinks} hands out: the link is
 * used up, and the account's older sessions end.
 */
@ApplicationScoped
public class PasswordSetup {
    private final UserAccountRepository users;
    private final CredentialRepository credentials;
    private final PasswordChecks passwords;
    private final AuditLog audit;

    PasswordSetup(UserAccountRepository users, CredentialRepository credentials, PasswordChecks passwords,
                  AuditLog audit) {
        this.users = users;
        this.credentials = credentials;
        this.passwords = passwords;
        this.audit = audit;
    }

    /**
     * Sets the first password through a setup link; the link is used up and older sessions end. A link that is
     * unknown, used or expired, or whose account has a password or signs in through the identity provider, is 400
     * before any bcrypt is spent.
     */
    public Uni<UserAccount> completeSetup(String secret, String password, AuditRecord.Source from) {
        Passwords.requireAcceptable(password);
        if (secret == null || secret.length() > 200) {
            return Uni.createFrom().failure(badSetupLink());
        }
        byte[] hashOfSecret = BearerSecrets.hash(secret);
        return TenantTransactions.acrossCompanies(() -> usableLink(hashOfSecret, Instant.now()))
                .flatMap(found -> passwords.hash(from, password))
                .flatMap(hash -> TenantTransactions.acrossCompanies(() -> usableLink(hashOfSecret, Instant.now())
                        .flatMap(found -> {
                            Instant now = Instant.now();
                            UserAccount user = found.user();
                            // used once: of two setups racing with one link, the second finds it revoked
                            return credentials.update("revokedAt = ?1 where id = ?2 and revokedAt is null", now,
                                            found.link().id)
                                    .flatMap(used -> used == 1 ? Uni.createFrom().voidItem()
                                            : Uni.createFrom().failure(badSetupLink()))
                                    .invoke(() -> user.passwordHash = hash)
                                    .flatMap(v -> credentials.revokeAllOf(user.id, Credential.SESSION, now))
                                    .call(n -> audit.record(Accounts.userActor(user), null, AuditRecord.PASSWORD_SET,
                                            new AuditRecord.Target("account", user.id.toString(), user.email),
                                            AuditLog.details("through", "setup link")))
                                    .replaceWith(user);
                        })));
    }

    private record UsableLink(Credential link, UserAccount user) {
    }

    private Uni<UsableLink> usableLink(byte[] hashOfSecret, Instant now) {
        return credentials.findByHash(hashOfSecret).flatMap(link -> {
            if (link == null || !Credential.SETUP.equals(link.kind) || !link.isActive(now)) {
                return Uni.createFrom().failure(badSetupLink());
            }
            return users.findById(link.userId).flatMap(user -> user == null || !user.awaitsSetup()
                    ? Uni.createFrom().failure(badSetupLink())
                    : Uni.createFrom().item(new UsableLink(link, user)));
        });
    }

    private static ProblemException badSetupLink() {
        return new ProblemException(400, "Invalid request", "token: the setup link is unknown, used or expired;"
                + " ask an operator for a new one", "token");
    }
}
