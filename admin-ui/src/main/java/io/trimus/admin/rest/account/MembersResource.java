package io.trimus.admin.rest.account;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.client.IdentityApi.Member;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.Views;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.List;
import java.util.UUID;

/**
 * A company's members (its admins' page): who belongs with which role, adding a person by email (a new account's
 * one-time setup link is shown on the answer page only), changing a role, removing. run-service decides and refuses.
 */
@Path("/companies/{company_id}/members")
@Produces(MediaType.TEXT_HTML)
public class MembersResource {
    static final List<String> ROLES = List.of("viewer", "member", "admin");

    private final Backends backends;
    private final RunServiceApi runService;
    private final IdentityApi identity;

    MembersResource(Backends backends, RunServiceApi runService, IdentityApi identity) {
        this.backends = backends;
        this.runService = runService;
        this.identity = identity;
    }

    @GET
    public TemplateInstance page(@PathParam("company_id") String companyId) {
        return Templates.members(view(PageNotFound.id("company", companyId), null, null, null));
    }

    /** Adds the person, or changes its role; the answer shows a new account's setup link once. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> put(@PathParam("company_id") String companyId,
                                              @FormParam("email") String email, @FormParam("role") String role) {
        UUID id = PageNotFound.id("company", companyId);
        String typed = email == null ? "" : email.strip();
        Member member;
        try {
            member = backends.call(Backend.RUN_SERVICE,
                    auth -> identity.putMember(auth, id, typed, new IdentityApi.RoleBody(role)));
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED) {
                throw e;
            }
            return RestResponse.status(RestResponse.Status.BAD_REQUEST, Templates.members(view(id, e.getMessage(),
                    null, null)));
        }
        if (member.setupUrl() != null) {
            return RestResponse.ok(Templates.members(view(id, null, member.role() + " " + member.email()
                    + " added.", new Views.SetupLink(member.email(), member.setupUrl().toString()))));
        }
        return RestResponse.seeOther(URI.create("/companies/" + id + "/members"));
    }

    @POST
    @Path("/remove")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> remove(@PathParam("company_id") String companyId,
                                                 @FormParam("email") String email) {
        UUID id = PageNotFound.id("company", companyId);
        backends.call(Backend.RUN_SERVICE, auth -> {
            identity.removeMember(auth, id, email == null ? "" : email.strip());
            return null;
        });
        return RestResponse.seeOther(URI.create("/companies/" + id + "/members"));
    }

    private Views.Members view(UUID id, String error, String notice, Views.SetupLink link) {
        String name = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, id)).name();
        // the page is the admins': a weaker role gets run-service's refusal as the page
        List<Member> members = backends.call(Backend.RUN_SERVICE, auth -> identity.members(auth, id).members());
        List<Views.MemberRow> rows = members.stream()
                .map(m -> new Views.MemberRow(m.email(), m.role(), Times.utc(m.since()), m.passwordSet())).toList();
        return new Views.Members(id.toString(), name, rows, ROLES, error, notice, link);
    }
}
