package io.trimus.admin.rest.audit;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.auth.SignedIn;
import io.trimus.admin.client.AuditApi;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.CompanyNames;
import io.trimus.admin.rest.PageForbidden;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.UUID;

/** The whole audit log ({@code /audit}, operators only): every company's records and the platform's, newest first. */
@Path("/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditResource {
    private final Backends backends;
    private final AuditApi audit;
    private final CompanyNames names;
    private final SignedIn signedIn;

    AuditResource(Backends backends, AuditApi audit, CompanyNames names, SignedIn signedIn) {
        this.backends = backends;
        this.audit = audit;
        this.names = names;
        this.signedIn = signedIn;
    }

    @GET
    public TemplateInstance page(@QueryParam("before") String before) {
        if (!signedIn.caller().operator()) {
            throw new PageForbidden("The whole audit log is for the platform's operators; a company's admins find "
                    + "theirs on the company's page.");
        }
        UUID older = AuditPages.before(before);
        AuditApi.AuditPage page = backends.call(Backend.RUN_SERVICE,
                auth -> audit.page(auth, null, AuditPages.SIZE, older));
        return Templates.audit(new Views.Audit(null, null, AuditRows.withCompanies(page.records(), names),
                AuditPages.older("/audit", page), older == null ? null : "/audit"));
    }
}
