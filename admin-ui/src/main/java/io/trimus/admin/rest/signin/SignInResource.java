package io.trimus.admin.rest.signin;

import io.quarkus.qute.TemplateInstance;
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
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;

/**
 * The sign-in page of built-in accounts: email and password go to run-service ({@code POST /api/sessions}), whose
 * session credential becomes the {@link SessionCookie}. A wrong email and a wrong password get the same sentence. When
 * an identity provider is configured the page also links to {@link OidcSignInResource}.
 */
@Path("/login")
@PublicPage
@Produces(MediaType.TEXT_HTML)
public class SignInResource {
    static final String WRONG = "Wrong email or password.";

    private final Backends backends;
    private final IdentityApi identity;
    private final SessionCookie cookies;
    private final String provider;

    SignInResource(Backends backends, IdentityApi identity, SessionCookie cookies, OidcConfig oidc) {
        this.backends = backends;
        this.identity = identity;
        this.cookies = cookies;
        this.provider = oidc.enabled() ? oidc.providerName() : null;
    }

    @GET
    public TemplateInstance form(@QueryParam("next") String next, @QueryParam("notice") String notice) {
        return Templates.login(new Views.SignIn("", SafeNext.of(next), null, notice(notice), provider));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> signIn(@FormParam("email") String email,
                                                 @FormParam("password") String password,
                                                 @FormParam("next") String next,
                                                 @HeaderParam("X-Forwarded-Proto") String proto,
                                                 @Context UriInfo uri, @Context HttpServerRequest request) {
        String typed = email == null ? "" : email.strip();
        // run-service shares its password checks out by source: every browser signs in through this one peer
        String client = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        IdentityApi.Session session;
        try {
            session = backends.callAs(null, Backend.RUN_SERVICE,
                    auth -> identity.signIn(client, new IdentityApi.SignIn(typed, password == null ? "" : password)));
        } catch (BackendException e) {
            String sentence = switch (e.kind()) {
                case UNAUTHENTICATED -> WRONG;
                case REFUSED -> e.getMessage();
                default -> throw e;
            };
            return RestResponse.status(e.kind() == BackendException.Kind.UNAUTHENTICATED
                    ? RestResponse.Status.UNAUTHORIZED : RestResponse.Status.BAD_REQUEST,
                    Templates.login(new Views.SignIn(typed, SafeNext.of(next), sentence, null, provider)));
        }
        return RestResponse.ResponseBuilder.<TemplateInstance>seeOther(URI.create(SafeNext.of(next)))
                .header(HttpHeaders.SET_COOKIE, cookies.set(session.token(), session.expiresAt(), proto,
                        uri.getRequestUri().getScheme()))
                .build();
    }

    // only known notices, so a link cannot put words of its own on the page
    private static String notice(String key) {
        if (key == null) {
            return null;
        }
        return switch (key) {
            case "setup" -> "Your password is set; sign in with it.";
            case "signed-out" -> "You are signed out.";
            default -> null;
        };
    }
}
