package io.trimus.admin.rest.account;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.auth.SignedIn;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.IdentityApi;
import io.trimus.admin.rest.PageForbidden;
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
import java.util.List;

/**
 * The platform's operator accounts ({@code /operators}, operators only): listed, added by email (a new account's
 * one-time setup link is shown on the answer page only), removed. run-service decides and refuses, e.g. the last one.
 */
@Path("/operators")
@Produces(MediaType.TEXT_HTML)
public class OperatorsResource {
    private final Backends backends;
    private final IdentityApi identity;
    private final SignedIn signedIn;

    OperatorsResource(Backends backends, IdentityApi identity, SignedIn signedIn) {
        this.backends = backends;
        this.identity = identity;
        this.signedIn = signedIn;
    }

    @GET
    public TemplateInstance page() {
        operatorsOnly();
        return Templates.operators(view(null, null, null));
    }

    /** Makes the person an operator; the answer shows a new account's setup link once. */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> add(@FormParam("email") String email) {
        operatorsOnly();
        String typed = email == null ? "" : email.strip();
        IdentityApi.Operator operator;
        try {
            operator = backends.call(Backend.RUN_SERVICE, auth -> identity.putOperator(auth, typed));
        } catch (BackendException e) {
            return refused(e);
        }
        if (operator.setupUrl() != null) {
            return RestResponse.ok(Templates.operators(view(null, operator.email() + " is an operator now.",
                    new Views.SetupLink(operator.email(), operator.setupUrl().toString()))));
        }
        return RestResponse.seeOther(URI.create("/operators"));
    }

    /** Takes the operator role away; run-service refuses the last operator account (409), shown on the page. */
    @POST
    @Path("/remove")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public RestResponse<TemplateInstance> remove(@FormParam("email") String email) {
        operatorsOnly();
        String typed = email == null ? "" : email.strip();
        try {
            backends.call(Backend.RUN_SERVICE, auth -> {
                identity.removeOperator(auth, typed);
                return null;
            });
        } catch (BackendException e) {
            return refused(e);
        }
        return RestResponse.seeOther(URI.create("/operators"));
    }

    // checked before run-service is asked, which refuses anyone else too
    private void operatorsOnly() {
        if (!signedIn.caller().operator()) {
            throw new PageForbidden("The operator accounts are for the platform's operators.");
        }
    }

    /** run-service's refusal (an invalid email, the last operator, no such operator) as the page with the sentence. */
    private RestResponse<TemplateInstance> refused(BackendException e) {
        if (e.kind() != BackendException.Kind.REFUSED && e.kind() != BackendException.Kind.NOT_FOUND) {
            throw e;
        }
        return RestResponse.status(RestResponse.Status.fromStatusCode(e.httpStatus()),
                Templates.operators(view(e.getMessage(), null, null)));
    }

    private Views.Operators view(String error, String notice, Views.SetupLink link) {
        List<IdentityApi.Operator> operators = backends.call(Backend.RUN_SERVICE,
                auth -> identity.operators(auth).operators());
        List<Views.OperatorRow> rows = operators.stream()
                .map(o -> new Views.OperatorRow(o.email(), o.passwordSet())).toList();
        return new Views.Operators(rows, error, notice, link);
    }
}
