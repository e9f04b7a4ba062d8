package io.trimus.admin.rest.egress;

import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Multi;
import io.smallrye.common.annotation.Blocking;
import io.trimus.admin.auth.LiveCaller;
import io.trimus.admin.auth.LiveCallers;
import io.trimus.admin.auth.PageAccess;
import io.trimus.admin.client.AllowlistEditor;
import io.trimus.admin.client.AllowlistEditor.Scope;
import io.trimus.admin.client.AllowlistEntries;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.RequestRules;
import io.trimus.admin.messaging.LiveFeed;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.rest.live.SseStreams;
import io.trimus.admin.view.AnomalyRows;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import io.trimus.events.auth.CompanyRole;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.List;
import java.util.UUID;

/**
 * A company's egress page ({@link EgressPage}: mode, allowlist, hourly chart, recent denials), its allowlist edits
 * (also the "Add to allowlist" of a row report mode let through) and the live stream of its new denials. Forms work
 * without JavaScript; with htmx only the changed part is swapped. The mode switch is {@link EgressPolicyResource}.
 */
@Path("/companies/{company_id}/egress")
public class EgressResource {
    private final EgressPage pages;
    private final AllowlistEditor allowlists;
    private final AllowlistForms forms;
    private final LiveFeed feed;
    private final PageAccess access;
    private final LiveCallers liveCallers;

    EgressResource(EgressPage pages, AllowlistEditor allowlists, AllowlistForms forms, LiveFeed feed,
                   PageAccess access, LiveCallers liveCallers) {
        this.forms = forms;
        this.access = access;
        this.liveCallers = liveCallers;
        this.pages = pages;
        this.allowlists = allowlists;
        this.feed = feed;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance page(@PathParam("company_id") String companyId, @QueryParam("reason") String reason,
                                 @QueryParam("qname") String qname, @QueryParam("min_score") String minScore,
                                 @QueryParam("before") String before) {
        UUID id = PageNotFound.id("company", companyId);
        return Templates.egress(pages.page(id, pages.policy(id, null), pages.allowlist(id, null, null, null), reason,
                qname, minScore, before));
    }

    @POST
    @Path("/allowlist/add")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> add(@PathParam("company_id") String companyId,
                                              @FormParam("entry") String entry,
                                              @HeaderParam("HX-Request") String htmx) {
        return forms.add(Scope.company(PageNotFound.id("company", companyId)), entry, htmx);
    }

    /** The request-rule form: a new entry with host, ports, methods and path prefixes. */
    @POST
    @Path("/allowlist/add-rule")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> addRule(@PathParam("company_id") String companyId,
                                                  @FormParam("host") String host, @FormParam("ports") String ports,
                                                  @FormParam("methods") List<String> methods,
                                                  @FormParam("paths") String paths,
                                                  @HeaderParam("HX-Request") String htmx) {
        return forms.rule(Scope.company(PageNotFound.id("company", companyId)), null, host, ports, methods, paths,
                htmx);
    }

    /** An entry's edit form: the entry {@code old} replaced by the one the form describes. */
    @POST
    @Path("/allowlist/replace")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> replace(@PathParam("company_id") String companyId,
                                                  @FormParam("old") String old, @FormParam("host") String host,
                                                  @FormParam("ports") String ports,
                                                  @FormParam("methods") List<String> methods,
                                                  @FormParam("paths") String paths,
                                                  @HeaderParam("HX-Request") String htmx) {
        return forms.rule(Scope.company(PageNotFound.id("company", companyId)), old == null ? "" : old, host, ports,
                methods, paths, htmx);
    }

    @POST
    @Path("/allowlist/remove")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> remove(@PathParam("company_id") String companyId,
                                                 @FormParam("entry") String entry,
                                                 @HeaderParam("HX-Request") String htmx) {
        return forms.remove(Scope.company(PageNotFound.id("company", companyId)), entry, htmx);
    }

    /**
     * "Add this path" of a request report mode let through although the rules refuse it: widens the company's list
     * when it refuses the request, and the agent's own list when the agent has one that refuses it
     * ({@link AllowlistEditor#allowRequest}). Admins only.
     */
    @POST
    @Path("/allowlist/add-request")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> addRequest(@PathParam("company_id") String companyId,
                                                     @FormParam("qname") String qname,
                                                     @FormParam("qtype") String qtype,
                                                     @FormParam("method") String method,
                                                     @FormParam("path") String path,
                                                     @FormParam("agent") String agent,
                                                     @HeaderParam("HX-Request") String htmx) {
        Scope scope = Scope.company(PageNotFound.id("company", companyId));
        forms.requireAdmin(scope);
        return forms.answer(scope, () -> {
            RequestRules.Request request = request(qname, qtype, method, path);
            AllowlistEditor.Allowed allowed = allowlists.allowRequest(scope.companyId(), agentId(agent), request);
            String what = request.method() + " " + request.path() + " on " + request.host();
            String notice = allowed.company() && allowed.agent() ? "Added " + what
                    + " to the company's list and to the agent's own list."
                    : allowed.company() ? "Added " + what + " to the company's list."
                    : allowed.agent() ? "Added " + what + " to the agent's own list."
                    : "The lists already let " + what + " through; nothing changed.";
            return new AllowlistForms.Done(true, allowed.companyEntries(), notice);
        }, e -> pages.allowlist(scope.companyId(), e.getMessage(), null, null), htmx);
    }

    /**
     * The company's new denials that pass the table's filters, as table rows, live: only to callers who may view the
     * company (404 otherwise, as the backends answer); the stream ends at the re-check that finds the credential
     * revoked or the caller no longer in the company, and the "Add to allowlist" action follows the current role.
     */
    @GET
    @Path("/live")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Blocking // the access gate asks run-service who calls
    public Multi<OutboundSseEvent> live(@Context Sse sse, @PathParam("company_id") String companyId,
                                        @QueryParam("reason") String reason, @QueryParam("qname") String qname,
                                        @QueryParam("min_score") String minScore) {
        UUID id = PageNotFound.id("company", companyId);
        if (!access.viewer(companyId)) {
            throw new PageNotFound("There is no company with the id \"" + companyId + "\".");
        }
        String reasonFilter = EgressPage.blankToNull(reason);
        String nameFilter = EgressPage.blankToNull(qname);
        Double scoreFilter = AnomalyRows.minScore(minScore);
        String csrf = access.csrf(); // the rows are rendered outside this request: they carry what they need
        LiveCaller caller = liveCallers.watch(c -> c.may(id, CompanyRole.VIEWER));
        return SseStreams.of(sse, "anomaly", feed.anomalies()
                .filter(a -> AnomalyRows.matches(a, id, reasonFilter, nameFilter, scoreFilter))
                .map(a -> Templates.egress$denial_row(AnomalyRows.of(a, null)
                        .withActions(caller.current().may(id, CompanyRole.ADMIN), csrf)).render()), caller);
    }

    /** The request of a denial row's "Add this path", each field bounded; a refusal naming the field otherwise. */
    static RequestRules.Request request(String qname, String qtype, String method, String path) {
        bounded("qname", qname, 260);
        bounded("qtype", qtype, 16);
        bounded("method", method, 64);
        bounded("path", path, AllowlistEntries.MAX_PATH);
        RequestRules.Request request = RequestRules.Request.of(qname, qtype, method, path);
        if (!request.allowable()) {
            throw refused("path", "No rule can allow this request: its method must be one of "
                    + String.join(", ", AllowlistEntries.METHODS) + " and its path start with /.");
        }
        return request;
    }

    private static UUID agentId(String agent) {
        if (agent == null || agent.isBlank()) {
            return null;
        }
        try {
            return UUID.fromString(agent.strip());
        } catch (IllegalArgumentException e) {
            throw refused("agent", "The agent is no agent id.");
        }
    }

    private static void bounded(String field, String value, int max) {
        if (value == null || value.isBlank()) {
            throw refused(field, "The denial's " + field + " is missing.");
        }
        if (value.length() > max) {
            throw refused(field, "The denial's " + field + " is longer than " + max + " characters.");
        }
    }

    private static BackendException refused(String field, String sentence) {
        return new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED, sentence, field, null);
    }
}
