package io.trimus.run.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.List;
import java.util.Optional;

/**
 * Sign-in with an OpenID Connect provider: run-service verifies the provider's ID token itself and turns it into a
 * Trimus session. Off while no issuer is set (built-in accounts only); admin-ui reads the same variables.
 */
@ConfigMapping(prefix = "trimus.oidc")
public interface OidcConfig {
    /**
     * The provider's issuer URL, exactly as its ID tokens write {@code iss}; its keys are found through
     * {@code <issuer>/.well-known/openid-configuration} (TRIMUS_OIDC_ISSUER, default none: sign-in through a provider
     * is off).
     */
    Optional<String> issuer();

    /** The client id registered at the provider; ID tokens must name it in {@code aud} (TRIMUS_OIDC_CLIENT_ID). */
    Optional<String> clientId();

    /**
     * The ID token claim that lists the person's Trimus roles, each {@code operator} or
     * {@code <company_id>:<admin|member|viewer>}, or a name of TRIMUS_OIDC_ROLE_MAPPING (TRIMUS_OIDC_ROLES_CLAIM,
     * default trimus_roles).
     */
    @WithDefault("trimus_roles")
    String rolesClaim();

    /**
     * Claim values such as group names mapped to a Trimus role, comma-separated {@code value=operator} or
     * {@code value=<company_id>:<role>} entries, e.g. {@code platform=operator,acme-devs=<uuid>:member}
     * (TRIMUS_OIDC_ROLE_MAPPING, default none: the claim names the roles itself).
     */
    Optional<List<String>> roleMapping();

    /**
     * The ID token claim that carries the person's email, which names the account it signs in to
     * (TRIMUS_OIDC_EMAIL_CLAIM, default email).
     */
    @WithDefault("email")
    String emailClaim();
}
