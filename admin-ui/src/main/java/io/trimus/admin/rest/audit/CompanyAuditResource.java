package io.trimus.admin.rest.audit;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.auth.SignedIn;
import io.trimus.admin.client.AuditApi;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.rest.PageForbidden;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import io.trimus.events.auth.CompanyRole;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.UUID;

/**
 * A company's audit log (its admins' page): who changed what, when and from where, newest first, page by page.
 * run-service decides who may read it; the page refuses weaker roles before asking.
 */
@Path("/companies/{company_id}/audit")
@Produces(MediaType.TEXT_HTML)
public class CompanyAuditResource {
    private final Backends backends;
    private final RunServiceApi runService;
    private final AuditApi audit;
    private final SignedIn signedIn;

    CompanyAuditResource(Backends backends, RunServiceApi runService, AuditApi audit, SignedIn signedIn) {
        this.backends = backends;
        this.runService = runService;
        this.audit = audit;
        this.signedIn = signedIn;
    }

    @GET
    public TemplateInstance page(@PathParam("company_id") String companyId, @QueryParam("before") String before) {
        UUID id = PageNotFound.id("company", companyId);
        UUID older = AuditPages.before(before);
        // a company the caller does not belong to is not found, as on every company page
        String name = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, id)).name();
        if (!signedIn.caller().may(id, CompanyRole.ADMIN)) {
            throw new PageForbidden("A company's audit log is for its admins.");
        }
        AuditApi.AuditPage page = backends.call(Backend.RUN_SERVICE,
                auth -> audit.page(auth, id, AuditPages.SIZE, older));
        String base = "/companies/" + id + "/audit";
        return Templates.audit(new Views.Audit(id.toString(), name, AuditRows.of(page.records()),
                AuditPages.older(base, page), older == null ? null : base));
    }
}
