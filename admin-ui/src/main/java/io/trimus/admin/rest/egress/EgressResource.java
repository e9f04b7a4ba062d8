package io.trimus.admin.rest.egress;

import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Multi;
import io.smallrye.common.annotation.Blocking;
import io.trimus.admin.auth.LiveCaller;
import io.trimus.admin.auth.LiveCallers;
import io.trimus.admin.auth.PageAccess;
import io.trimus.admin.client.AllowlistEditor;
import io.trimus.admin.client.BackendException;
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

import java.net.URI;
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
    private final LiveFeed feed;
    private final PageAccess access;
    private final LiveCallers liveCallers;

    EgressResource(EgressPage pages, AllowlistEditor allowlists, LiveFeed feed, PageAccess access,
                   LiveCallers liveCallers) {
        this.access = access;
        this.liveCallers = liveCallers;
        this.pages = pages;
        this.allowlists = allowlists;
        this.feed = feed;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance page(@PathParam("company_id") String companyId, @QueryParam("reason") String reason,
                                 @QueryParam("qname") String qname, @QueryParam("before") String before) {
        UUID id = PageNotFound.id("company", companyId);
        return Templates.egress(pages.page(id, pages.policy(id, null), pages.allowlist(id, null, null, null), reason,
                qname, before));
    }

    @POST
    @Path("/allowlist/add")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> add(@PathParam("company_id") String companyId,
                                              @FormParam("entry") String entry,
                                              @HeaderParam("HX-Request") String htmx) {
        UUID id = PageNotFound.id("company", companyId);
        try {
            AllowlistEditor.Change change = allowlists.add(id, entry);
            String typed = entry == null ? "" : entry.strip();
            return changed(id, change.entries(), change.added() ? "Added " + typed + "."
                    : typed + " is already on the allowlist.", htmx);
        } catch (BackendException e) {
            return refused(id, e, entry, htmx);
        }
    }

    @POST
    @Path("/allowlist/remove")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> remove(@PathParam("company_id") String companyId,
                                                 @FormParam("entry") String entry,
                                                 @HeaderParam("HX-Request") String htmx) {
        UUID id = PageNotFound.id("company", companyId);
        try {
            List<String> stored = allowlists.remove(id, entry);
            return changed(id, stored, "Removed " + entry + ".", htmx);
        } catch (BackendException e) {
            return refused(id, e, null, htmx);
        }
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
                                        @QueryParam("reason") String reason, @QueryParam("qname") String qname) {
        UUID id = PageNotFound.id("company", companyId);
        if (!access.viewer(companyId)) {
            throw new PageNotFound("There is no company with the id \"" + companyId + "\".");
        }
        String reasonFilter = EgressPage.blankToNull(reason);
        String nameFilter = EgressPage.blankToNull(qname);
        String csrf = access.csrf(); // the rows are rendered outside this request: they carry what they need
        LiveCaller caller = liveCallers.watch(c -> c.may(id, CompanyRole.VIEWER));
        return SseStreams.of(sse, "anomaly", feed.anomalies()
                .filter(a -> AnomalyRows.matches(a, id, reasonFilter, nameFilter))
                .map(a -> Templates.egress$denial_row(AnomalyRows.of(a, null)
                        .withActions(caller.current().may(id, CompanyRole.ADMIN), csrf)).render()), caller);
    }

    private RestResponse<TemplateInstance> changed(UUID id, List<String> stored, String notice, String htmx) {
        if (htmx != null) {
            return RestResponse.ok(Templates.egress$allowlist(
                    new Views.Allowlist(id.toString(), stored, null, null, null, notice)));
        }
        // without JavaScript: post/redirect/get, so a reload does not send the form again
        return RestResponse.seeOther(URI.create("/companies/" + id + "/egress"));
    }

    private RestResponse<TemplateInstance> refused(UUID id, BackendException e, String typed, String htmx) {
        if (e.kind() != BackendException.Kind.REFUSED) {
            throw e;
        }
        Views.Allowlist editor = pages.allowlist(id, e.getMessage(), typed, null);
        if (htmx != null) {
            return RestResponse.ok(Templates.egress$allowlist(editor)); // htmx swaps only 2xx answers
        }
        return RestResponse.status(RestResponse.Status.BAD_REQUEST,
                Templates.egress(pages.page(id, pages.policy(id, null), editor)));
    }
}
