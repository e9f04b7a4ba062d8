package io.trimus.admin.rest.account;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
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

/** The operators' API tokens ({@code /tokens}, operators only): listed without values, made (shown once), revoked. */
@Path("/tokens")
@Produces(MediaType.TEXT_HTML)
public class OperatorTokensResource {
    private final Backends backends;
    private final IdentityApi identity;

    OperatorTokensResource(Backends backends, IdentityApi identity) {
        this.backends = backends;
        this.identity = identity;
    }

    @GET
    public TemplateInstance page() {
        return Templates.tokens(view(null, null));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> create(@FormParam("name") String name,
                                                 @FormParam("expires_on") String expiresOn) {
        try {
            IdentityApi.CreatedToken token = backends.call(Backend.RUN_SERVICE, auth -> identity.createOperatorToken(
                    auth, new IdentityApi.NewToken(name == null ? "" : name.strip(), null, TokensPage.expiry(expiresOn))));
            return RestResponse.ok(Templates.tokens(view(null, TokensPage.created(token))));
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED) {
                throw e;
            }
            return RestResponse.status(RestResponse.Status.BAD_REQUEST, Templates.tokens(view(e.getMessage(), null)));
        }
    }

    @POST
    @Path("/{token_id}/revoke")
    public RestResponse<Void> revoke(@PathParam("token_id") String tokenId) {
        UUID token = PageNotFound.id("token", tokenId);
        backends.call(Backend.RUN_SERVICE, auth -> {
            identity.revokeOperatorToken(auth, token);
            return null;
        });
        return RestResponse.seeOther(URI.create("/tokens"));
    }

    private Views.Tokens view(String error, Views.Created created) {
        List<IdentityApi.Token> tokens = backends.call(Backend.RUN_SERVICE, auth -> identity.operatorTokens(auth).tokens());
        return new Views.Tokens(null, null, "/tokens", TokensPage.rows(tokens), List.of(), error, created);
    }
}
