package io.trimus.admin.rest.account;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
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
 * A company's API tokens (its admins' page): listed without their values, made with a name, a role and an optional
 * expiry (the value shown once, on the answer page), revoked at once.
 */
@Path("/companies/{company_id}/tokens")
@Produces(MediaType.TEXT_HTML)
public class TokensResource {
    private final Backends backends;
    private final RunServiceApi runService;
    private final IdentityApi identity;

    TokensResource(Backends backends, RunServiceApi runService, IdentityApi identity) {
        this.backends = backends;
        this.runService = runService;
        this.identity = identity;
    }

    @GET
    public TemplateInstance page(@PathParam("company_id") String companyId) {
        return Templates.tokens(view(PageNotFound.id("company", companyId), null, null));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> create(@PathParam("company_id") String companyId,
                                                 @FormParam("name") String name, @FormParam("role") String role,
                                                 @FormParam("expires_on") String expiresOn) {
        UUID id = PageNotFound.id("company", companyId);
        try {
            IdentityApi.CreatedToken token = backends.call(Backend.RUN_SERVICE, auth -> identity.createToken(auth, id,
                    new IdentityApi.NewToken(name == null ? "" : name.strip(), role, TokensPage.expiry(expiresOn))));
            return RestResponse.ok(Templates.tokens(view(id, null, TokensPage.created(token))));
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED) {
                throw e;
            }
            return RestResponse.status(RestResponse.Status.BAD_REQUEST, Templates.tokens(view(id, e.getMessage(), null)));
        }
    }

    @POST
    @Path("/{token_id}/revoke")
    public RestResponse<Void> revoke(@PathParam("company_id") String companyId, @PathParam("token_id") String tokenId) {
        UUID id = PageNotFound.id("company", companyId);
        UUID token = PageNotFound.id("token", tokenId);
        backends.call(Backend.RUN_SERVICE, auth -> {
            identity.revokeToken(auth, id, token);
            return null;
        });
        return RestResponse.seeOther(URI.create("/companies/" + id + "/tokens"));
    }

    private Views.Tokens view(UUID id, String error, Views.Created created) {
        String name = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, id)).name();
        // the page is the admins': a weaker role gets the backend's refusal as the page
        List<IdentityApi.Token> tokens = backends.call(Backend.RUN_SERVICE, auth -> identity.tokens(auth, id).tokens());
        return new Views.Tokens(id.toString(), name, "/companies/" + id + "/tokens", TokensPage.rows(tokens),
                MembersResource.ROLES, error, created);
    }
}
