package io.trimus.run.rest.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.service.identity.MemberService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;

/**
 * Who belongs to a company with which role, managed by its admins. A person without an account gets one, and that
 * answer alone carries its one-time setup link to hand over; an account that exists gets the membership and no link,
 * once an operator or the identity provider vouches for it unless the company's own invitation made it.
 */
@Path("/api/companies/{company_id}/members")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MemberResource {
    private final MemberService members;
    private final CurrentCaller caller;

    MemberResource(MemberService members, CurrentCaller caller) {
        this.members = members;
        this.caller = caller;
    }

    /** Body of PUT …/members/{email}. */
    public record PutMember(String role) {
    }

    /** The company's members. */
    public record MemberList(List<MemberService.Member> members) {
    }

    @GET
    @Allowed(Access.ADMIN)
    public Uni<MemberList> list(@PathParam("company_id") String companyId) {
        return members.members(Ids.parse("company_id", companyId)).map(MemberList::new);
    }

    /**
     * Gives the person the role (idempotent); 200 with the membership, and a setup link when the call made the account;
     * 409 when a company admin adds another company's invitee no operator vouches for (docs/access.md).
     */
    @PUT
    @Path("/{email}")
    @Allowed(Access.ADMIN)
    public Uni<MemberService.Member> put(@PathParam("company_id") String companyId, @PathParam("email") String email,
                                          PutMember body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"role\": \"member\"}");
        }
        return members.putMember(Ids.parse("company_id", companyId), email, body.role(), caller.require().operator());
    }

    @DELETE
    @Path("/{email}")
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<Void>> remove(@PathParam("company_id") String companyId,
                                          @PathParam("email") String email) {
        return members.removeMember(Ids.parse("company_id", companyId), email)
                .map(v -> RestResponse.noContent());
    }
}
