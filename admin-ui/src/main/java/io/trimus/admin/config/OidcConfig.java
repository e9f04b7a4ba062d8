package io.trimus.admin.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.util.Optional;

/**
 * Sign-in with an OpenID Connect provider (code flow): off while no issuer is set, and then the dashboard offers
 * built-in accounts only. run-service reads the same issuer and client id and checks the ID token itself.
 */
@ConfigMapping(prefix = "trimus.oidc")
public interface OidcConfig {
    /** The provider's issuer URL; its endpoints are found through discovery (TRIMUS_OIDC_ISSUER, default none: off). */
    Optional<String> issuer();

    /** The client id registered at the provider for the dashboard (TRIMUS_OIDC_CLIENT_ID). */
    Optional<String> clientId();

    /**
     * The client's secret at the provider (TRIMUS_OIDC_CLIENT_SECRET, default none: a public client with PKCE only);
     * unless TRIMUS_OIDC_STATE_SECRET is set, the sign-in's state cookie is also encrypted with a key derived from it,
     * so every replica can read it.
     */
    Optional<String> clientSecret();

    /**
     * The secret the sign-in's state cookie is encrypted with, at least 32 random characters, the same on every
     * admin-ui replica (TRIMUS_OIDC_STATE_SECRET, default none: derived from TRIMUS_OIDC_CLIENT_SECRET, and with a
     * public client a key of each process alone, so a sign-in must then end on the replica that began it).
     */
    Optional<String> stateSecret();

    /**
     * The provider's name on the sign-in page, "Sign in with …" (TRIMUS_OIDC_PROVIDER_NAME, default single sign-on).
     */
    @WithDefault("single sign-on")
    String providerName();

    /** Whether sign-in through the provider is on: an issuer and a client id are set. */
    default boolean enabled() {
        return issuer().filter(i -> !i.isBlank()).isPresent() && clientId().filter(c -> !c.isBlank()).isPresent();
    }
}
