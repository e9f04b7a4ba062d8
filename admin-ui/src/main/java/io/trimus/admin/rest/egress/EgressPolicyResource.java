package io.trimus.admin.rest.egress;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.EgressPolicies;
import io.trimus.admin.client.EgressServiceApi.Policy;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.UUID;

/**
 * The egress mode switch of a company's egress page: enforce or report. Works like the allowlist forms: without
 * JavaScript post/redirect/get (a refusal is the whole page with the reason, HTTP 400); with htmx the mode part alone.
 */
@Path("/companies/{company_id}/egress/policy")
public class EgressPolicyResource {
    private final EgressPolicies policies;
    private final EgressPage pages;

    EgressPolicyResource(EgressPolicies policies, EgressPage pages) {
        this.policies = policies;
        this.pages = pages;
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> switchMode(@PathParam("company_id") String companyId,
                                                     @FormParam("mode") String mode,
                                                     @HeaderParam("HX-Request") String htmx) {
        UUID id = PageNotFound.id("company", companyId);
        Views.Policy result;
        try {
            Policy stored = policies.switchTo(id, mode);
            result = EgressPage.policy(id, stored, null, "report".equals(stored.mode())
                    ? "Report mode: hosts off the allowlist are let through and recorded."
                    : "Enforce mode: hosts off the allowlist are denied.");
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED) {
                throw e;
            }
            result = pages.policy(id, e.getMessage());
            if (htmx == null) {
                return RestResponse.status(RestResponse.Status.BAD_REQUEST,
                        Templates.egress(pages.page(id, result, pages.allowlist(id, null, null, null))));
            }
        }
        if (htmx != null) {
            return RestResponse.ok(Templates.egress$policy(result)); // htmx swaps only 2xx answers
        }
        return RestResponse.seeOther(URI.create("/companies/" + id + "/egress"));
    }
}
