package io.trimus.admin.rest.company;

import io.trimus.admin.auth.PageAccess;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.rest.PageForbidden;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.CanaryViews;
import io.trimus.admin.view.Templates;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
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
 * The "Canaries" panel of a company's page on its own, for htmx: read again while a canary runs, and "Run a canary
 * now" (admins and operators; refused here with 403 before egress-service is asked, which refuses others too). Each
 * answer also carries the page's header out of band, so the page turns red, or back, with the latest canary. Without
 * JavaScript the button is post/redirect/get.
 */
@Path("/companies/{company_id}/canary")
public class CanaryResource {
    private static final String HTML = MediaType.TEXT_HTML + ";charset=UTF-8"; // the panel is text, not a template

    private final CanaryPanels panels;
    private final Backends backends;
    private final RunServiceApi runService;
    private final PageAccess access;

    CanaryResource(CanaryPanels panels, Backends backends, RunServiceApi runService, PageAccess access) {
        this.panels = panels;
        this.backends = backends;
        this.runService = runService;
        this.access = access;
    }

    @GET
    @Produces(HTML)
    public String panel(@PathParam("company_id") String companyId) {
        UUID id = PageNotFound.id("company", companyId);
        String name = name(id); // run-service answers 404 for a company the caller may not see
        return answer(id, name, panels.latest(id));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(HTML)
    public RestResponse<String> run(@PathParam("company_id") String companyId, @HeaderParam("HX-Request") String htmx) {
        UUID id = PageNotFound.id("company", companyId);
        if (!access.admin(companyId)) {
            throw new PageForbidden("You cannot do this: running a canary needs the admin role in this company.");
        }
        String name = name(id);
        CanaryViews.Panel panel = panels.run(id);
        if (htmx == null) {
            return RestResponse.seeOther(URI.create("/companies/" + id + "#canaries"));
        }
        return RestResponse.ok(answer(id, name, panel)); // htmx swaps only 2xx answers
    }

    private String name(UUID id) {
        return backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, id)).name();
    }

    private static String answer(UUID id, String name, CanaryViews.Panel panel) {
        return Templates.company$canary(panel).render()
                + Templates.company$head(id.toString(), name, panel).render();
    }
}
