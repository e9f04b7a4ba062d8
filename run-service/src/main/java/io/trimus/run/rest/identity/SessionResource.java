package io.trimus.run.rest.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.events.auth.Caller;
import io.trimus.run.service.identity.Sessions;
import io.trimus.run.service.identity.oidc.OidcSignIn;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Instant;

/**
 * Signing in with a built-in account: {@code POST /api/sessions} trades email and password for a session credential
 * (what the dashboard keeps in its cookie), {@code DELETE /api/sessions/current} ends the presented session; and
 * {@code POST /api/setup} sets a first password through a one-time setup link. {@code POST /api/sessions/oidc} trades an
 * ID token of the configured OpenID Connect provider for a session (the dashboard's "Sign in with …").
 */
@Path("/api/sessions")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SessionResource {
    private final Sessions sessions;
    private final OidcSignIn oidc;

    private final CurrentCaller caller;

    SessionResource(Sessions sessions, OidcSignIn oidc, CurrentCaller caller) {
        this.sessions = sessions;
        this.oidc = oidc;
        this.caller = caller;
    }

    /** Body of POST /api/sessions/oidc: the raw ID token the provider issued at the end of the code flow. */
    public record ProviderSignIn(String idToken) {
    }

    /** Body of POST /api/sessions. */
    public record SignIn(String email, String password) {
    }

    /** A new session: {@code token} is shown this once. */
    public record SessionView(String token, Instant expiresAt, Caller caller) {
    }

    @POST
    @Allowed(Access.ANYONE)
    public Uni<RestResponse<SessionView>> signIn(SignIn body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"email\": \"…\", \"password\": \"…\"}");
        }
        return sessions.signIn(body.email(), body.password(), caller.source()).map(session -> RestResponse.status(
                RestResponse.Status.CREATED, new SessionView(session.secret(), session.expiresAt(), session.caller())));
    }

    @POST
    @Path("/oidc")
    @Allowed(Access.ANYONE)
    public Uni<RestResponse<SessionView>> signInThroughProvider(ProviderSignIn body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"id_token\": \"…\"}");
        }
        return oidc.signIn(body.idToken()).map(session -> RestResponse.status(RestResponse.Status.CREATED,
                new SessionView(session.secret(), session.expiresAt(), session.caller())));
    }

    @DELETE
    @Path("/current")
    @Allowed(Access.SIGNED_IN)
    public Uni<RestResponse<Void>> signOut(@HeaderParam(BearerCredentials.HEADER) String authorization) {
        return sessions.signOut(BearerCredentials.of(authorization).orElseThrow())
                .map(v -> RestResponse.noContent());
    }
}
