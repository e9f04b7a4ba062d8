package io.trimus.admin.rest.egress;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.AllowlistEditor;
import io.trimus.admin.client.AllowlistEditor.Scope;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;

/**
 * An agent's egress page: whether it has an allowlist of its own (which narrows the company's), its entries and the
 * forms that create one (a copy of the company's), change it like the company's ({@link AllowlistForms}) and drop it.
 * The agent must be one of the company's (run-service answers 404 otherwise, and so does this page).
 */
@Path("/companies/{company_id}/agents/{agent_id}/egress")
public class AgentEgressResource {
    private final EgressPage pages;
    private final AllowlistForms forms;
    private final AllowlistEditor allowlists;

    AgentEgressResource(EgressPage pages, AllowlistForms forms, AllowlistEditor allowlists) {
        this.pages = pages;
        this.forms = forms;
        this.allowlists = allowlists;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance page(@PathParam("company_id") String companyId, @PathParam("agent_id") String agentId) {
        Scope scope = scope(companyId, agentId);
        return Templates.agent_egress(pages.agentPage(scope, pages.allowlist(scope, null, null, null, null, null)));
    }

    @POST
    @Path("/allowlist/add")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> add(@PathParam("company_id") String companyId,
                                              @PathParam("agent_id") String agentId,
                                              @FormParam("entry") String entry,
                                              @HeaderParam("HX-Request") String htmx) {
        return forms.add(known(companyId, agentId), entry, htmx);
    }

    @POST
    @Path("/allowlist/add-rule")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> addRule(@PathParam("company_id") String companyId,
                                                  @PathParam("agent_id") String agentId,
                                                  @FormParam("host") String host, @FormParam("ports") String ports,
                                                  @FormParam("methods") List<String> methods,
                                                  @FormParam("paths") String paths,
                                                  @HeaderParam("HX-Request") String htmx) {
        return forms.rule(known(companyId, agentId), null, host, ports, methods, paths, htmx);
    }

    @POST
    @Path("/allowlist/replace")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> replace(@PathParam("company_id") String companyId,
                                                  @PathParam("agent_id") String agentId,
                                                  @FormParam("old") String old, @FormParam("host") String host,
                                                  @FormParam("ports") String ports,
                                                  @FormParam("methods") List<String> methods,
                                                  @FormParam("paths") String paths,
                                                  @HeaderParam("HX-Request") String htmx) {
        return forms.rule(known(companyId, agentId), old == null ? "" : old, host, ports, methods, paths, htmx);
    }

    @POST
    @Path("/allowlist/remove")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> remove(@PathParam("company_id") String companyId,
                                                 @PathParam("agent_id") String agentId,
                                                 @FormParam("entry") String entry,
                                                 @HeaderParam("HX-Request") String htmx) {
        return forms.remove(known(companyId, agentId), entry, htmx);
    }

    /** Gives the agent a list of its own, starting as a copy of the company's. */
    @POST
    @Path("/allowlist/create")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> create(@PathParam("company_id") String companyId,
                                                 @PathParam("agent_id") String agentId,
                                                 @HeaderParam("HX-Request") String htmx) {
        Scope scope = known(companyId, agentId);
        forms.requireAdmin(scope);
        return forms.answer(scope, () -> {
            AllowlistEditor.Listed own = allowlists.createOwn(scope.companyId(), scope.agentId());
            return new AllowlistForms.Done(true, own.entries(), "The agent has its own list now, a copy of the"
                    + " company's: remove or narrow entries to narrow what the agent reaches.");
        }, e -> pages.allowlist(scope, e.getMessage(), null, null, null, null), htmx);
    }

    /** Drops the agent's own list: the company's applies to it alone again. */
    @POST
    @Path("/allowlist/drop")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> drop(@PathParam("company_id") String companyId,
                                               @PathParam("agent_id") String agentId,
                                               @HeaderParam("HX-Request") String htmx) {
        Scope scope = known(companyId, agentId);
        forms.requireAdmin(scope);
        return forms.answer(scope, () -> {
            allowlists.drop(scope.companyId(), scope.agentId());
            return new AllowlistForms.Done(false, List.of(), "Dropped the agent's own list: the company's list"
                    + " applies to it alone again.");
        }, e -> pages.allowlist(scope, e.getMessage(), null, null, null, null), htmx);
    }

    private static Scope scope(String companyId, String agentId) {
        return Scope.agent(PageNotFound.id("company", companyId), PageNotFound.id("agent", agentId));
    }

    /** The scope of a change, once run-service confirms the agent is the company's (404 otherwise). */
    private Scope known(String companyId, String agentId) {
        Scope scope = scope(companyId, agentId);
        pages.agentName(scope);
        return scope;
    }
}
