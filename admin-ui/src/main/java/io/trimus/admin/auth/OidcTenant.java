package io.trimus.admin.auth;

import io.quarkus.oidc.OidcRequestContext;
import io.quarkus.oidc.OidcTenantConfig;
import io.quarkus.oidc.TenantConfigResolver;
import io.quarkus.oidc.runtime.OidcTenantConfig.ApplicationType;
import io.smallrye.mutiny.Uni;
import io.trimus.admin.config.OidcConfig;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * quarkus-oidc's code flow for the one path that needs it, {@value #COMPLETE_PATH}, and only when TRIMUS_OIDC_ISSUER
 * is set: no other request is ever handed to the provider (quarkus-oidc's default tenant is off). The flow carries
 * state, nonce and PKCE; its state cookie is encrypted with a key derived from the client secret, so any replica can
 * finish a sign-in another began.
 */
@ApplicationScoped
public class OidcTenant implements TenantConfigResolver {
    /** The entry path: the dashboard's "Sign in with …" link. */
    public static final String ENTRY_PATH = "/sign-in/oidc";
    /** Where the provider sends the browser back (the redirect URI to register there). */
    public static final String COMPLETE_PATH = "/sign-in/oidc/complete";
    /** Where a provider's error lands. */
    public static final String ERROR_PATH = "/sign-in/oidc/error";
    private static final Logger LOG = Logger.getLogger(OidcTenant.class);

    private final OidcConfig config;
    private final Optional<OidcTenantConfig> tenant;

    OidcTenant(OidcConfig config) {
        this.config = config;
        this.tenant = config.enabled() ? Optional.of(tenantConfig(config)) : Optional.empty();
    }

    @Override
    public Uni<OidcTenantConfig> resolve(RoutingContext context, OidcRequestContext<OidcTenantConfig> request) {
        return Uni.createFrom().item(COMPLETE_PATH.equals(context.normalizedPath()) ? tenant.orElse(null) : null);
    }

    private static OidcTenantConfig tenantConfig(OidcConfig config) {
        String secret = stateSecret(config.clientSecret());
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

    private static String stateSecret(Optional<String> clientSecret) {
        if (clientSecret.filter(s -> !s.isBlank()).isEmpty()) {
            LOG.warn("TRIMUS_OIDC_CLIENT_SECRET is not set: the sign-in state is encrypted with a key of this process "
                    + "only, so a sign-in must end on the replica that began it");
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            return HexFormat.of().formatHex(random);
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(("trimus-oidc-state:" + clientSecret.get())
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
