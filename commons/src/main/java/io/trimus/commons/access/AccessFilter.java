package io.trimus.commons.access;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Problem;
import io.trimus.events.AuditRecord;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.events.auth.Caller;
import io.trimus.events.auth.CompanyRole;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.UUID;

/**
 * Enforces each endpoint's {@link Allowed} level before the endpoint runs: 401 without a valid credential, 404 when the
 * caller does not belong to the company the request names (so a company's existence does not leak), 403 when it
 * belongs with too weak a role or the endpoint is the operators' or the services'. An endpoint without {@link Allowed}
 * is refused for everyone. It also notes where the request came from, for the audit records of what it changes.
 */
public class AccessFilter {
    private static final String FORWARDED_FOR = "X-Forwarded-For";
    private final Credentials credentials;
    private final CurrentCaller current;

    AccessFilter(Credentials credentials, CurrentCaller current) {
        this.credentials = credentials;
        this.current = current;
    }

    // On the event loop also before blocking endpoints: the lookups are reactive (Hibernate Reactive, HTTP)
    @ServerRequestFilter(priority = Priorities.AUTHENTICATION, nonBlocking = true)
    public Uni<Response> authorize(ContainerRequestContext request, ResourceInfo resource, HttpServerRequest http) {
        current.setSource(AuditRecord.Source.of(http.remoteAddress() == null ? null : http.remoteAddress().hostAddress(),
                request.getHeaderString(FORWARDED_FOR), request.getHeaderString(HttpHeaders.USER_AGENT)));
        Optional<Access> level = levelOf(resource);
        if (level.isEmpty()) {
            return done(refusal(403, "Forbidden", "this endpoint is closed: it declares no access level"));
        }
        if (level.get() == Access.ANYONE) {
            return done(null);
        }
        Optional<String> credential = BearerCredentials.of(request.getHeaderString(BearerCredentials.HEADER));
        if (credential.isEmpty()) {
            return done(unauthenticated("send Authorization: Bearer <token> (an API token, or sign in on the"
                    + " dashboard)"));
        }
        if (credentials.isService(credential.get())) {
            if (level.get() != Access.SERVICE) {
                return done(refusal(403, "Forbidden", "the service credential may call internal endpoints only"));
            }
            current.setService();
            return done(null);
        }
        if (level.get() == Access.SERVICE) {
            return credentials.caller(credential.get()).map(caller -> caller == null ? unknownCredential()
                    : refusal(403, "Forbidden", "this endpoint is internal to Trimus's services"));
        }
        return credentials.caller(credential.get()).map(caller -> {
            if (caller == null) {
                return unknownCredential();
            }
            current.set(caller);
            String named = companyOf(request);
            Refusal refusal = refusal(level.get(), caller, named);
            if (refusal == null && caller.a2aOnly()) {
                refusal = agentRefusal(caller, request.getUriInfo().getPathParameters().getFirst("agent_id"));
            }
            if (refusal != null) {
                return refusal.response();
            }
            if (level.get().companyRole().isPresent() && !caller.operator()) {
                current.setCompany(parse(named));
            }
            current.setAdmission(new CurrentCaller.Admission(credential.get(), level.get(), named));
            return null;
        });
    }

    /**
     * Whether {@code caller} may call an endpoint of {@code level} in the company the request named ({@code named}, or
     * null): the rule of {@link #authorize}, also what an open stream asks again ({@link StreamAccess}).
     */
    static boolean admits(Access level, Caller caller, String named) {
        return refusal(level, caller, named) == null;
    }

    private static Refusal refusal(Access level, Caller caller, String named) {
        if (caller.a2aOnly() && level != Access.A2A) {
            return new Refusal(403, "Forbidden", "this token is A2A-only: it may call the A2A endpoints of the agents"
                    + " it names and nothing else");
        }
        if (level == Access.SIGNED_IN || caller.operator()) {
            return null;
        }
        if (level == Access.OPERATOR) {
            return new Refusal(403, "Forbidden", "only the platform's operators may do this");
        }
        CompanyRole needed = level.companyRole().orElseThrow();
        UUID company = parse(named);
        Optional<CompanyRole> role = company == null ? Optional.empty() : caller.roleIn(company);
        if (role.isEmpty()) {
            return named == null ? new Refusal(400, "Invalid request", "company_id is required")
                    : new Refusal(404, "Not found", "company " + named + " does not exist");
        }
        if (role.get().covers(needed)) {
            return null;
        }
        return new Refusal(403, "Forbidden", "this needs the " + needed.wireName()
                + " role in company " + company + "; yours is " + role.get().wireName());
    }

    /** An A2A-only token calls the A2A endpoint of an agent it names, else 403. */
    private static Refusal agentRefusal(Caller caller, String agent) {
        UUID named = parse(agent);
        return named != null && caller.a2aAgents().contains(named) ? null : new Refusal(403, "Forbidden",
                "this A2A-only token does not name agent " + agent);
    }

    /** A refused request: its status and words. */
    private record Refusal(int status, String title, String detail) {
        Response response() {
            return AccessFilter.refusal(status, title, detail);
        }
    }

    private static Optional<Access> levelOf(ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        if (method == null) {
            return Optional.empty();
        }
        Allowed allowed = method.getAnnotation(Allowed.class);
        if (allowed == null) {
            allowed = resource.getResourceClass().getAnnotation(Allowed.class);
        }
        return Optional.ofNullable(allowed).map(Allowed::value);
    }

    private static String companyOf(ContainerRequestContext request) {
        String inPath = request.getUriInfo().getPathParameters().getFirst("company_id");
        return inPath != null ? inPath : request.getUriInfo().getQueryParameters().getFirst("company_id");
    }

    private static UUID parse(String id) {
        try {
            return id == null ? null : UUID.fromString(id.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Response unknownCredential() {
        return unauthenticated("the credential is unknown, expired or revoked");
    }

    private static Response unauthenticated(String detail) {
        Response refused = refusal(401, "Unauthorized", detail);
        refused.getHeaders().add(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"trimus\"");
        return refused;
    }

    private static Response refusal(int status, String title, String detail) {
        return Response.status(status).type(Problem.MEDIA_TYPE)
                .entity(Problem.of(status, title, detail, null, null)).build();
    }

    private static Uni<Response> done(Response response) {
        return Uni.createFrom().item(response);
    }
}
