package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.service.AccountService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.List;
import java.util.UUID;

/**
 * Who belongs to a company with which role, managed by its admins; and the platform's operators, managed by operators.
 * A person without an account gets one, and the answer carries a one-time setup link to hand over.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MemberResource {
    private final AccountService accounts;

    MemberResource(AccountService accounts) {
        this.accounts = accounts;
    }

    /** Body of PUT …/members/{email}. */
    public record PutMember(String role) {
    }

    /** The company's members. */
    public record MemberList(List<AccountService.Member> members) {
    }

    /** An operator account; {@code setup_url} when it has no password yet. */
    public record OperatorView(UUID userId, String email, URI setupUrl) {
    }

    @GET
    @Path("/companies/{company_id}/members")
    @Allowed(Access.ADMIN)
    public Uni<MemberList> list(@PathParam("company_id") String companyId) {
        return accounts.members(Ids.parse("company_id", companyId)).map(MemberList::new);
    }

    /** Gives the person the role (idempotent); 200 with the membership, and a setup link for a new account. */
    @PUT
    @Path("/companies/{company_id}/members/{email}")
    @Allowed(Access.ADMIN)
    public Uni<AccountService.Member> put(@PathParam("company_id") String companyId, @PathParam("email") String email,
                                          PutMember body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"role\": \"member\"}");
        }
        return accounts.putMember(Ids.parse("company_id", companyId), email, body.role());
    }

    @DELETE
    @Path("/companies/{company_id}/members/{email}")
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<Void>> remove(@PathParam("company_id") String companyId,
                                          @PathParam("email") String email) {
        return accounts.removeMember(Ids.parse("company_id", companyId), email)
                .map(v -> RestResponse.noContent());
    }

    /** Makes the person an operator (idempotent). */
    @PUT
    @Path("/operators/{email}")
    @Allowed(Access.OPERATOR)
    public Uni<OperatorView> putOperator(@PathParam("email") String email) {
        return accounts.putOperator(email).map(link -> new OperatorView(link.user().id, link.user().email,
                link.url()));
    }
}
