package io.trimus.run.service.identity.oidc;

import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.config.OidcConfig;
import io.trimus.run.service.identity.Accounts;
import io.trimus.run.service.identity.Sessions;
import jakarta.enterprise.context.ApplicationScoped;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;

import java.util.List;

/**
 * Sign-in through the OpenID Connect provider: an ID token, verified here ({@link IdTokenVerifier}), becomes a
 * Trimus session of the account of its email, whose operator flag and memberships are set to exactly what the roles
 * claim grants ({@link OidcAccounts}). Built at start, so a malformed TRIMUS_OIDC_ROLE_MAPPING stops the service.
 */
@Startup
@ApplicationScoped
public class OidcSignIn {
    private final IdTokenVerifier verifier;
    private final OidcAccounts accounts;
    private final OidcConfig config;
    private final RoleClaims roles;

    OidcSignIn(IdTokenVerifier verifier, OidcAccounts accounts, OidcConfig config) {
        this.verifier = verifier;
        this.accounts = accounts;
        this.config = config;
        this.roles = RoleClaims.withMapping(config.roleMapping().orElse(List.of()));
    }

    /** A session for the person the ID token names; 404 when no provider is configured, 401 for a refused token. */
    public Uni<Sessions.OpenedSession> signIn(String idToken) {
        if (!verifier.enabled()) {
            return Uni.createFrom().failure(new ProblemException(404, "Not found", "sign-in through an identity "
                    + "provider is not configured on this Trimus (TRIMUS_OIDC_ISSUER)", null));
        }
        if (idToken == null || idToken.isBlank()) {
            return Uni.createFrom().failure(ProblemException.invalid("id_token", "is required"));
        }
        if (idToken.length() > IdTokenVerifier.MAX_LENGTH) {
            return Uni.createFrom().failure(ProblemException.invalid("id_token", "must be at most "
                    + IdTokenVerifier.MAX_LENGTH + " characters"));
        }
        return verifier.verify(idToken).map(this::identity).flatMap(accounts::signIn);
    }

    private ProviderIdentity identity(JwtClaims claims) {
        try {
            Object emailVerified = claims.getClaimValue("email_verified");
            if (Boolean.FALSE.equals(emailVerified) || "false".equals(emailVerified)) {
                throw refused("your identity provider has not verified your email address");
            }
            Object email = claims.getClaimValue(config.emailClaim());
            if (!(email instanceof String text) || text.isBlank()) {
                throw refused("your identity provider sends no email address (claim " + config.emailClaim() + ")");
            }
            Grants grants;
            try {
                grants = roles.read(claims.getClaimValue(config.rolesClaim()));
            } catch (IllegalArgumentException e) {
                throw refused(e.getMessage());
            }
            return new ProviderIdentity(claims.getIssuer(), claims.getSubject(), Accounts.checkedEmail(text),
                    grants);
        } catch (MalformedClaimException e) {
            throw new ProblemException(401, "Unauthorized", "the ID token was refused: " + e.getMessage(),
                    "id_token");
        }
    }

    static ProblemException refused(String why) {
        return new ProblemException(403, "Forbidden", why, null);
    }
}
