package io.trimus.run.rest.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
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

/** The platform's API tokens ({@code /api/tokens}): operator tokens, made and revoked by operators. */
@Path("/api/tokens")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OperatorTokenResource {
    private final TokenService tokens;
    private final CurrentCaller caller;

    OperatorTokenResource(TokenService tokens, CurrentCaller caller) {
        this.tokens = tokens;
        this.caller = caller;
    }

    @POST
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<TokenResource.CreatedToken>> createForOperator(TokenResource.CreateToken body) {
        TokenResource.CreateToken request = TokenResource.required(body);
        if (request.role() != null && !"operator".equals(request.role())) {
            throw ProblemException.invalid("role", "must be operator or left out: these are operator tokens");
        }
        if (request.a2aAgents() != null) {
            throw ProblemException.invalid("a2a_agents", "an operator token cannot be A2A-only: make it a company's"
                    + " token (POST /api/companies/{company_id}/tokens)");
        }
        return tokens.createForOperator(request.name(), request.expiresAt(), caller.require())
                .map(TokenResource::created);
    }

    @GET
    @Allowed(Access.OPERATOR)
    public Uni<TokenResource.TokenList> listOfOperators() {
        return tokens.listOfOperators().map(TokenResource::list);
    }

    @DELETE
    @Path("/{token_id}")
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<Void>> revokeOfOperators(@PathParam("token_id") String tokenId) {
        return tokens.revokeOfOperators(Ids.parse("token_id", tokenId)).map(t -> RestResponse.noContent());
    }
}
