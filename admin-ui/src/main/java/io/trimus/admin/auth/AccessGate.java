package io.trimus.admin.auth;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import io.trimus.commons.problem.Problem;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.events.auth.Caller;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.WithFormRead;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The door of every page and action (static files and {@code /q/health} are not JAX-RS and stay open): checks the
 * Origin of state-changing requests, recognises the caller by its session cookie or bearer token through run-service's
 * {@code GET /api/me} (once per request, kept in {@link SignedIn}), and requires the CSRF token of cookie sessions on
 * state-changing requests. Browsers without a valid credential are sent to {@code /login}, everything else gets 401.
 * Runs on the request's own thread (a worker for every page; the live feeds are blocking endpoints for this reason).
 */
public class AccessGate {
    private final OriginCheck origins;
    private final SessionCookie cookies;
    private final SignedIn signedIn;
    private final Backends backends;
    private final IdentityApi identity;

    AccessGate(OriginCheck origins, SessionCookie cookies, SignedIn signedIn, Backends backends, IdentityApi identity) {
        this.origins = origins;
        this.cookies = cookies;
        this.signedIn = signedIn;
        this.backends = backends;
        this.identity = identity;
    }

    @ServerRequestFilter
    @WithFormRead // the form's _csrf field must be readable here
    public void check(ResteasyReactiveContainerRequestContext request, ResourceInfo resource,
                      HttpServerRequest http) {
        Response refusal = refusal(request, resource, http);
        if (refusal != null) {
            request.abortWith(refusal);
        }
    }

    /** Why the request may not go on, as the answer to give; null when it may. */
    private Response refusal(ResteasyReactiveContainerRequestContext request, ResourceInfo resource,
                             HttpServerRequest http) {
        String method = request.getMethod();
        if (!origins.allows(method, request.getHeaderString("Origin"), request.getHeaderString("Referer"),
                http.host())) { // Host, or HTTP/2's :authority
            return page(403, "Refused", "This request came from another site's page; the dashboard only takes forms "
                    + "from its own pages. Nothing was changed.");
        }
        if (resource.getResourceClass() != null && resource.getResourceClass().isAnnotationPresent(PublicPage.class)) {
            return null;
        }
        var cookie = request.getCookies().get(SessionCookie.NAME);
        Optional<Presented> presented = Presented.of(request.getHeaderString(HttpHeaders.AUTHORIZATION),
                cookie == null ? null : cookie.getValue());
        if (presented.isEmpty()) {
            return signInFirst(request, false, false);
        }
        Caller caller;
        try {
            caller = backends.callAs(BearerCredentials.header(presented.get().secret()), Backend.RUN_SERVICE,
                    identity::me);
        } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.UNAUTHENTICATED) {
                return signInFirst(request, presented.get().fromCookie(), !presented.get().fromCookie());
            }
            return page(e.httpStatus(), "Cannot check who you are", e.getMessage());
        }
        signedIn.set(presented.get(), caller);
        if (presented.get().fromCookie() && OriginCheck.STATE_CHANGING.contains(method)
                && !CsrfTokens.matches(presented.get().secret(), csrfToken(request))) {
            return page(403, "Refused", "This form was not sent from a page of this session (its CSRF token is "
                    + "missing or wrong). Reload the page and try again; nothing was changed.");
        }
        return null;
    }

    /** The answer without a valid credential; a script that sent a bearer token gets 401, never the sign-in page. */
    private Response signInFirst(ContainerRequestContext request, boolean clearCookie, boolean bearer) {
        String proto = request.getHeaderString("X-Forwarded-Proto");
        String scheme = request.getUriInfo().getRequestUri().getScheme();
        Response.ResponseBuilder answer;
        String accept = request.getHeaderString(HttpHeaders.ACCEPT);
        if (request.getHeaderString("HX-Request") != null) {
            answer = Response.status(401).header("HX-Redirect", "/login"); // htmx follows it with a full page load
        } else if (!bearer && accept != null && accept.contains(MediaType.TEXT_HTML)) {
            answer = Response.seeOther(URI.create("/login" + next(request)));
        } else {
            answer = Response.status(401).type(Problem.MEDIA_TYPE).entity(Problem.of(401, "Unauthorized",
                    "sign in, or send Authorization: Bearer <token>", null, null));
        }
        answer.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"trimus\"");
        if (clearCookie) {
            answer.header(HttpHeaders.SET_COOKIE, cookies.clear(proto, scheme));
        }
        return answer.build();
    }

    private static String next(ContainerRequestContext request) {
        if (!"GET".equals(request.getMethod())) {
            return "";
        }
        URI uri = request.getUriInfo().getRequestUri();
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return "/".equals(path) ? "" : "?next=" + URLEncoder.encode(path, StandardCharsets.UTF_8);
    }

    private static String csrfToken(ResteasyReactiveContainerRequestContext request) {
        String header = request.getHeaderString(CsrfTokens.HEADER);
        if (header != null) {
            return header;
        }
        MediaType type = request.getMediaType();
        if (type != null && type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE)
                && request.getServerRequestContext() instanceof ResteasyReactiveRequestContext context) {
            Object field = context.getFormParameter(CsrfTokens.FIELD, true, false);
            return field instanceof String s ? s : null;
        }
        return null;
    }

    private static Response page(int status, String title, String sentence) {
        TemplateInstance page = Templates.error(new Views.Error(status, title, sentence));
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).entity(page.render())
                .build();
    }
}
