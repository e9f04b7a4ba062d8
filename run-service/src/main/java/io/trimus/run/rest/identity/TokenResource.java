package io.trimus.run.rest.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.service.identity.TokenService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A company's API tokens ({@code /api/companies/{id}/tokens}): made by its admins, each acting with one role in the
 * company. The value is in the creating answer only. Operator tokens: {@link OperatorTokenResource}.
 */
@Path("/api/companies/{company_id}/tokens")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TokenResource {
    private final TokenService tokens;
    private final CurrentCaller caller;

    TokenResource(TokenService tokens, CurrentCaller caller) {
        this.tokens = tokens;
        this.caller = caller;
    }

    /**
     * Body of POST …/tokens; {@code role} only for company tokens; {@code a2aAgents} makes an A2A-only token (a member
     * that may call the A2A endpoints of those agents and nothing else).
     */
    public record CreateToken(String name, String role, Instant expiresAt, List<String> a2aAgents) {
    }

    /** A token as lists show it: never its value; {@code a2aAgents} empty unless it is A2A-only. */
    public record TokenView(UUID id, String name, String role, UUID companyId, String createdBy, Instant createdAt,
                            Instant expiresAt, Instant lastUsedAt, Instant revokedAt, boolean active,
                            List<UUID> a2aAgents) {
        static TokenView of(Credential c) {
            return new TokenView(c.id, c.name, c.role, c.companyId, c.createdBy, c.createdAt, c.expiresAt,
                    c.lastUsedAt, c.revokedAt, c.isActive(Instant.now()), c.a2aAgentIds());
        }
    }

    /** A token just made: {@code token} is its value, shown this once. */
    public record CreatedToken(UUID id, String name, String role, UUID companyId, Instant createdAt,
                               Instant expiresAt, List<UUID> a2aAgents, String token) {
        static CreatedToken of(TokenService.IssuedToken issued) {
            Credential c = issued.credential();
            return new CreatedToken(c.id, c.name, c.role, c.companyId, c.createdAt, c.expiresAt, c.a2aAgentIds(),
                    issued.secret());
        }
    }

    /** Tokens of one company or of the operators. */
    public record TokenList(List<TokenView> tokens) {
    }

    @POST
        @Allowed(Access.ADMIN)
    public Uni<RestResponse<CreatedToken>> createForCompany(@PathParam("company_id") String companyId,
                                                             CreateToken body) {
        CreateToken request = required(body);
        return tokens.createForCompany(Ids.parse("company_id", companyId), request.name(), request.role(),
                request.expiresAt(), agents(request.a2aAgents()), caller.require()).map(TokenResource::created);
    }

    @GET
        @Allowed(Access.ADMIN)
    public Uni<TokenList> listOfCompany(@PathParam("company_id") String companyId) {
        return tokens.listOfCompany(Ids.parse("company_id", companyId)).map(TokenResource::list);
    }

    /** Revokes the token: 204, from the next request on it is refused everywhere. */
    @DELETE
    @Path("/{token_id}")
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<Void>> revokeOfCompany(@PathParam("company_id") String companyId,
                                                   @PathParam("token_id") String tokenId) {
        return tokens.revokeOfCompany(Ids.parse("company_id", companyId), Ids.parse("token_id", tokenId))
                .map(t -> RestResponse.noContent());
    }

    /** The agent ids of {@code a2a_agents}, null when absent; 400 naming the field when one is not an id. */
    private static List<UUID> agents(List<String> ids) {
        if (ids == null) {
            return null;
        }
        if (ids.size() > TokenService.MAX_A2A_AGENTS) {   // bounds the parsing; TokenService checks the rest
            throw ProblemException.invalid("a2a_agents", "must name 1 to " + TokenService.MAX_A2A_AGENTS + " agents");
        }
        return ids.stream().map(id -> Ids.parse("a2a_agents", id)).toList();
    }

    static CreateToken required(CreateToken body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"name\": \"…\", \"role\": \"member\"}");
        }
        return body;
    }

    static RestResponse<CreatedToken> created(TokenService.IssuedToken issued) {
        return RestResponse.status(RestResponse.Status.CREATED, CreatedToken.of(issued));
    }

    static TokenList list(List<Credential> all) {
        return new TokenList(all.stream().map(TokenView::of).toList());
    }
}
