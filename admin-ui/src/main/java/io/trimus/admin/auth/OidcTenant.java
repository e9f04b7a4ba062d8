package io.trimus.admin.auth;

import io.quarkus.oidc.OidcRequestContext;
import io.quarkus.oidc.OidcTenantConfig;
import io.quarkus.oidc.TenantConfigResolver;
import io.quarkus.oidc.runtime.OidcTenantConfig.ApplicationType;
import io.smallrye.mutiny.Uni;
import io.trimus.admin.config.OidcConfig;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;

/**
 * quarkus-oidc's code flow for the one path that needs it, {@value #COMPLETE_PATH}, and only when TRIMUS_OIDC_ISSUER
 * is set: no other request is ever handed to the provider (quarkus-oidc's default tenant is off). The flow carries
 * state, nonce and PKCE; its state cookie is encrypted with a key derived from configuration ({@link OidcStateKey}), so
 * any replica can finish a sign-in another began.
 */
@ApplicationScoped
public class OidcTenant implements TenantConfigResolver {
    /** The entry path: the dashboard's "Sign in with …" link. */
    public static final String ENTRY_PATH = "/sign-in/oidc";
    /** Where the provider sends the browser back (the redirect URI to register there). */
    public static final String COMPLETE_PATH = "/sign-in/oidc/complete";
    /** Where a provider's error lands. */
    public static final String ERROR_PATH = "/sign-in/oidc/error";

    private final OidcConfig config;
    private final Optional<OidcTenantConfig> tenant;

    OidcTenant(OidcConfig config) {
        this.config = config;
        this.tenant = config.enabled() ? Optional.of(tenantConfig(config)) : Optional.empty();
    }

    /** The code flow's configuration, empty while sign-in through a provider is off. */
    Optional<OidcTenantConfig> tenantConfig() {
        return tenant;
    }

    @Override
    public Uni<OidcTenantConfig> resolve(RoutingContext context, OidcRequestContext<OidcTenantConfig> request) {
        return Uni.createFrom().item(COMPLETE_PATH.equals(context.normalizedPath()) ? tenant.orElse(null) : null);
    }

    private static OidcTenantConfig tenantConfig(OidcConfig config) {
        String secret = OidcStateKey.of(config);
        var builder = OidcTenantConfig.builder().tenantId("trimus").authServerUrl(config.issuer().orElseThrow())
                .clientId(config.clientId().orElseThrow());
        config.clientSecret().filter(s -> !s.isBlank()).ifPresent(builder::credentials);
        return builder.applicationType(ApplicationType.WEB_APP)
                .authentication()
                .redirectPath(COMPLETE_PATH).restorePathAfterRedirect(true).removeRedirectParameters(true)
                .errorPath(ERROR_PATH)
                .scopes("email", "profile")
                .pkceRequired().nonceRequired().stateSecret(secret)
                .end()
                .tokenStateManager().encryptionSecret(secret).end()
                .build();
    }
}
