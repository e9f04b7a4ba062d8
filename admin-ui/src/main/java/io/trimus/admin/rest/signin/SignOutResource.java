package io.trimus.admin.rest.signin;

import io.trimus.admin.auth.SessionCookie;
import io.trimus.admin.auth.SignedIn;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;

/**
 * {@code POST /logout} (a form with the CSRF token): ends the session at run-service, so the cookie's value stops
 * working everywhere at once, and clears the cookie.
 */
@Path("/logout")
public class SignOutResource {
    private final Backends backends;
    private final IdentityApi identity;
    private final SessionCookie cookies;
    private final SignedIn signedIn;

    SignOutResource(Backends backends, IdentityApi identity, SessionCookie cookies, SignedIn signedIn) {
        this.backends = backends;
        this.identity = identity;
        this.cookies = cookies;
        this.signedIn = signedIn;
    }

    @POST
    public RestResponse<Void> signOut(@HeaderParam("X-Forwarded-Proto") String proto, @Context UriInfo uri) {
        if (!signedIn.csrfToken().isEmpty()) { // a session; a bearer token is revoked on its tokens page instead
            backends.call(Backend.RUN_SERVICE, auth -> {
                identity.signOut(auth);
                return null;
            });
        }
        return RestResponse.ResponseBuilder.<Void>seeOther(URI.create("/login?notice=signed-out"))
                .header(HttpHeaders.SET_COOKIE, cookies.clear(proto, uri.getRequestUri().getScheme())).build();
    }
}
