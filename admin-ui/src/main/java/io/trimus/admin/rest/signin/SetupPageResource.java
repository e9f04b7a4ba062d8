package io.trimus.admin.rest.signin;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.auth.PublicPage;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;

/**
 * The target of run-service's setup links ({@code /setup#<secret>}): the secret rides in the fragment, which no
 * browser sends to a server, so {@code trimus-setup.js} copies it into the form; the form sets the first password
 * through run-service ({@code POST /api/setup}) and leads to the sign-in page.
 */
@Path("/setup")
@PublicPage
@Produces(MediaType.TEXT_HTML)
public class SetupPageResource {
    private final Backends backends;
    private final IdentityApi identity;

    SetupPageResource(Backends backends, IdentityApi identity) {
        this.backends = backends;
        this.identity = identity;
    }

    @GET
    public TemplateInstance form() {
        return Templates.setup(new Views.Setup("", null));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> setup(@FormParam("token") String token, @FormParam("password") String password,
                                                @FormParam("confirm") String confirm) {
        String secret = token == null ? "" : token.strip();
        if (password == null || !password.equals(confirm)) {
            return refused(secret, "The two passwords differ; type the same password twice.");
        }
        try {
            backends.callAs(null, Backend.RUN_SERVICE, auth -> identity.setup(new IdentityApi.Setup(secret, password)));
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED && e.kind() != BackendException.Kind.NOT_FOUND) {
                throw e;
            }
            return refused(secret, e.getMessage());
        }
        return RestResponse.seeOther(URI.create("/login?notice=setup"));
    }

    private static RestResponse<TemplateInstance> refused(String secret, String sentence) {
        // the secret goes back into the form of the same person's page: the fragment is gone after the POST
        return RestResponse.status(RestResponse.Status.BAD_REQUEST, Templates.setup(new Views.Setup(secret, sentence)));
    }
}
