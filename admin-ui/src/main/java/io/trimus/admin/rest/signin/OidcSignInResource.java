package io.trimus.admin.rest.signin;

import io.quarkus.oidc.IdToken;
import io.quarkus.oidc.OidcSession;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.Authenticated;
import io.trimus.admin.auth.OidcTenant;
import io.trimus.admin.auth.ProviderCheck;
import io.trimus.admin.auth.PublicPage;
import io.trimus.admin.auth.SafeNext;
import io.trimus.admin.auth.SessionCookie;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.config.OidcConfig;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sign-in through the OpenID Connect provider: {@value OidcTenant#ENTRY_PATH} starts quarkus-oidc's code flow
 * ({@link OidcTenant}); when it comes back, the raw ID token goes to run-service ({@code POST /api/sessions/oidc}),
 * which checks it itself and answers with a session that becomes the {@link SessionCookie} exactly as a password
 * sign-in's; quarkus-oidc's own session cookie is removed, so the dashboard still keeps no session of its own.
 */
@Path(OidcTenant.ENTRY_PATH)
@PublicPage
@Produces(MediaType.TEXT_HTML)
public class OidcSignInResource {
    private static final Logger LOG = Logger.getLogger(OidcSignInResource.class);

    private final OidcConfig config;
    private final Backends backends;
    private final IdentityApi identity;
    private final SessionCookie cookies;
    private final OidcSession oidcSession;
    private final ProviderCheck provider;
    @Inject
    @IdToken
    JsonWebToken idToken;

    OidcSignInResource(OidcConfig config, Backends backends, IdentityApi identity, SessionCookie cookies,
                       OidcSession oidcSession, ProviderCheck provider) {
        this.provider = provider;
        this.config = config;
        this.backends = backends;
        this.identity = identity;
        this.cookies = cookies;
        this.oidcSession = oidcSession;
    }

    /** The "Sign in with …" link: on to the code flow, or a page saying why not (none configured, not reachable). */
    @GET
    public RestResponse<TemplateInstance> start(@QueryParam("next") String next) {
        if (!config.enabled()) {
            return page(404, "Not configured", "Sign-in through an identity provider is not configured on this "
                    + "dashboard; sign in with your email and password.");
        }
        if (!provider.reachable()) {
            return page(503, "Sign-in unavailable", config.providerName() + " cannot be reached right now; try "
                    + "again in a moment, or sign in with your email and password.");
        }
        return RestResponse.seeOther(URI.create(OidcTenant.COMPLETE_PATH + "?next="
                + URLEncoder.encode(SafeNext.of(next), StandardCharsets.UTF_8)));
    }

    /**
     * Back from the provider with a verified ID token: trades it for a Trimus session. Answers with a page of our own
     * that moves on to {@code next}: the browser sends a SameSite=Strict cookie only on a navigation that starts on
     * this site, and this request's chain started at the provider's.
     */
    @GET
    @Path("/complete")
    @Authenticated
    public RestResponse<TemplateInstance> complete(@QueryParam("next") String next,
                                                   @HeaderParam("X-Forwarded-Proto") String proto,
                                                   @Context UriInfo uri) {
        IdentityApi.Session session;
        try {
            session = backends.callAs(null, Backend.RUN_SERVICE,
                    auth -> identity.signInThroughProvider(new IdentityApi.ProviderSignIn(idToken.getRawToken())));
        } catch (BackendException e) {
            endProviderSession();
            return switch (e.kind()) {
                case FORBIDDEN -> page(403, "No access to Trimus", "You signed in at " + config.providerName()
                        + ", but " + sentence(e) + ". Ask your administrator to grant you a role.");
                case UNAUTHENTICATED -> page(401, "Sign-in refused", "Trimus could not accept the sign-in from "
                        + config.providerName() + ": " + sentence(e) + ".");
                default -> page(e.httpStatus(), "Sign-in failed", e.getMessage());
            };
        }
        endProviderSession();
        return RestResponse.ResponseBuilder.ok(Templates.signedIn(new Views.SignedIn(SafeNext.of(next))))
                .header(HttpHeaders.SET_COOKIE, cookies.set(session.token(), session.expiresAt(), proto,
                        uri.getRequestUri().getScheme()))
                .header("Cache-Control", "no-store")
                .build();
    }

    /** Where the code flow lands when the provider answers with an error instead of a code. */
    @GET
    @Path("/error")
    public RestResponse<TemplateInstance> error(@QueryParam("error") String error) {
        // only known codes become words: the rest of the query is anyone's link, never shown
        String why = "access_denied".equals(error) ? "the sign-in was cancelled or refused there"
                : "login_required".equals(error) || "interaction_required".equals(error)
                ? "it needs you to sign in there first" : "it answered with an error";
        return page(401, "Sign-in failed", "The sign-in at " + config.providerName() + " did not complete: " + why
                + ". Try again, or sign in with your email and password.");
    }

    private static String sentence(BackendException e) {
        String message = e.getMessage() == null ? "" : e.getMessage().strip();
        return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
    }

    private void endProviderSession() {
        try {
            oidcSession.logout().await().atMost(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.debugf(e, "could not remove the code flow's session cookie");
        }
    }

    private static RestResponse<TemplateInstance> page(int status, String title, String sentence) {
        return RestResponse.ResponseBuilder.<TemplateInstance>create(status)
                .entity(Templates.error(new Views.Error(status, title, sentence))).build();
    }
}
