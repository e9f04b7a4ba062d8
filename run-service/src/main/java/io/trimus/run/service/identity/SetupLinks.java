package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import io.trimus.run.repository.identity.UserAccount;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URI;
import java.time.Instant;

/**
 * The one place setup links are made, and the rule of who gets one. A setup link sets the password of an account, so
 * it is the account: it goes only to whoever vouches for the person behind it. That is the call that made the account
 * (a company admin's invitation, an operator's), or an operator, and only while the account has no password and the
 * identity provider has not signed it in. An invitation to an account that exists already never makes one, so a
 * company admin can neither take over a person another company invited, an operator or a provider's account, nor
 * revoke the link that person holds.
 */
@ApplicationScoped
public class SetupLinks {
    private final CredentialRepository credentials;
    private final TrimusConfig config;

    SetupLinks(CredentialRepository credentials, TrimusConfig config) {
        this.credentials = credentials;
        this.config = config;
    }

    /** A setup link just made: its URL (this once) and its end. */
    public record Issued(URI url, Instant expiresAt) {
    }

    /** The link of an account the calling request has just made; joins the caller's transaction. */
    public Uni<Issued> forNewAccount(UserAccount user) {
        return issue(user);
    }

    /**
     * An operator's fresh link for {@code user} (which is then vouched for by the operator); any older link of the
     * account ends. 409 when the account has a password or signs in through the identity provider.
     */
    public Uni<Issued> byOperator(UserAccount user) {
        if (user.passwordHash != null) {
            return Uni.createFrom().failure(ProblemException.conflict(user.email + " has a password already:"
                    + " a setup link is only for an account without one"));
        }
        if (UserAccount.BY_PROVIDER.equals(user.vouchedBy)) {
            return Uni.createFrom().failure(ProblemException.conflict(user.email + " signs in through the identity"
                    + " provider: it gets no setup link"));
        }
        user.vouchedBy = UserAccount.BY_OPERATOR;
        return issue(user);
    }

    /** Ends every open setup link of the account; joins the caller's transaction. */
    public Uni<Integer> revokeAll(UserAccount user, Instant now) {
        // the user's own credentials carry no company: widen the caller's row scope for this statement only
        return TenantTransactions.acrossCompanies(() -> credentials.revokeAllOf(user.id, Credential.SETUP, now));
    }

    private Uni<Issued> issue(UserAccount user) {
        Instant now = Instant.now();
        String secret = BearerSecrets.generate(BearerSecrets.SETUP_PREFIX);
        Credential link = Credential.ofUser(Credential.SETUP, "setup link", user.id, BearerSecrets.hash(secret),
                "run-service", now, now.plus(config.auth().setupLinkTtl()));
        // The secret rides in the fragment: browsers send it to no server and no Referer carries it.
        URI url = URI.create(config.dashboard().url().toString().replaceAll("/+$", "") + "/setup#" + secret);
        return TenantTransactions.acrossCompanies(() -> credentials.revokeAllOf(user.id, Credential.SETUP, now)
                .flatMap(n -> credentials.persist(link))).replaceWith(new Issued(url, link.expiresAt));
    }
}
