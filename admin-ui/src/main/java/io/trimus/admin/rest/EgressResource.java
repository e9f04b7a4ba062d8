package io.trimus.admin.rest;

import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Multi;
import io.trimus.admin.client.AllowlistEditor;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.EgressServiceApi;
import io.trimus.admin.client.EgressServiceApi.Anomaly;
import io.trimus.admin.client.EgressServiceApi.Policy;
import io.trimus.admin.client.EgressServiceApi.PolicyBody;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.messaging.LiveFeed;
import io.trimus.admin.rest.Views.AnomalyRow;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A company's egress page: its policy mode (enforce or report), the allowlist editor, allowed connections and denials
 * per hour, and the recent denials (newest first, filtered by reason and name, paged by last_seen, new ones streamed
 * in; what report mode let through offered for the allowlist). Forms work without JavaScript; with htmx only the
 * changed part is swapped.
 */
@Path("/companies/{company_id}/egress")
public class EgressResource {
    static final int PAGE_SIZE = 50;
    static final java.util.Set<String> MODES = java.util.Set.of("enforce", "report");

    private final Backends backends;
    private final RunServiceApi runService;
    private final EgressServiceApi egressService;
    private final AllowlistEditor allowlists;
    private final LiveFeed feed;

    EgressResource(Backends backends, RunServiceApi runService, EgressServiceApi egressService,
                   AllowlistEditor allowlists, LiveFeed feed) {
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
        this.allowlists = allowlists;
        this.feed = feed;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance page(@PathParam("company_id") String companyId, @QueryParam("reason") String reason,
                                 @QueryParam("qname") String qname, @QueryParam("before") String before) {
        UUID id = PageNotFound.id("company", companyId);
        return Templates.egress(egress(id, policyView(id, backends.fetch(Backend.EGRESS_SERVICE,
                () -> egressService.policy(id)), null), allowlist(id, null, null, null), reason, qname, before));
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

    @POST
    @Path("/policy")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public RestResponse<TemplateInstance> policy(@PathParam("company_id") String companyId,
                                                 @FormParam("mode") String mode,
                                                 @HeaderParam("HX-Request") String htmx) {
        UUID id = PageNotFound.id("company", companyId);
        Views.Policy result;
        try {
            if (mode == null || !MODES.contains(mode)) {
                throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                        "Choose a mode: enforce or report.", "mode", null);
            }
            Policy stored = backends.call(Backend.EGRESS_SERVICE,
                    () -> egressService.replacePolicy(id, new PolicyBody(mode)));
            result = policyView(id, stored, null, "report".equals(stored.mode())
                    ? "Report mode: hosts off the allowlist are let through and recorded."
                    : "Enforce mode: hosts off the allowlist are denied.");
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED) {
                throw e;
            }
            result = policyView(id, backends.fetch(Backend.EGRESS_SERVICE, () -> egressService.policy(id)),
                    e.getMessage());
            if (htmx == null) {
                return RestResponse.status(RestResponse.Status.BAD_REQUEST, Templates.egress(
                        egress(id, result, allowlist(id, null, null, null), null, null, null)));
            }
        }
        if (htmx != null) {
            return RestResponse.ok(Templates.egress$policy(result));
        }
        return RestResponse.seeOther(URI.create("/companies/" + id + "/egress"));
    }

    /** The company's new denials that pass the table's filters, as table rows, live. */
    @GET
    @Path("/live")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> live(@Context Sse sse, @PathParam("company_id") String companyId,
                                        @QueryParam("reason") String reason, @QueryParam("qname") String qname) {
        UUID id = PageNotFound.id("company", companyId);
        String reasonFilter = blankToNull(reason);
        String nameFilter = blankToNull(qname);
        return SseStreams.of(sse, "anomaly", feed.anomalies()
                .filter(a -> AnomalyRows.matches(a, id, reasonFilter, nameFilter))
                .map(a -> Templates.egress$denial_row(AnomalyRows.of(a, null)).render()));
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
        Views.Allowlist editor = allowlist(id, e.getMessage(), typed, null);
        if (htmx != null) {
            return RestResponse.ok(Templates.egress$allowlist(editor)); // htmx swaps only 2xx answers
        }
        return RestResponse.status(RestResponse.Status.BAD_REQUEST, Templates.egress(egress(id,
                policyView(id, backends.fetch(Backend.EGRESS_SERVICE, () -> egressService.policy(id)), null), editor,
                null, null, null)));
    }

    private Views.Allowlist allowlist(UUID id, String entryError, String rejected, String notice) {
        Fetched<List<String>> entries = backends.fetch(Backend.EGRESS_SERVICE, () -> allowlists.entries(id));
        return new Views.Allowlist(id.toString(), entries.failed() ? List.of() : entries.value(), entries.error(),
                entryError, rejected, notice);
    }

    private static Views.Policy policyView(UUID id, Fetched<Policy> policy, String error) {
        if (policy.failed()) {
            return new Views.Policy(id.toString(), null, false, null,
                    error != null ? error : "The egress mode could not be read: " + policy.error(), null);
        }
        return policyView(id, policy.value(), error, null);
    }

    private static Views.Policy policyView(UUID id, Policy policy, String error, String notice) {
        String mode = policy.mode() == null ? "enforce" : policy.mode();
        return new Views.Policy(id.toString(), mode, "report".equals(mode),
                policy.updatedAt() == null ? null : Times.utc(policy.updatedAt()), error, notice);
    }

    private Views.Egress egress(UUID id, Views.Policy policy, Views.Allowlist allowlist, String reason, String qname,
                                String before) {
        String name = backends.call(Backend.RUN_SERVICE, () -> runService.company(id)).name();
        String reasonFilter = blankToNull(reason);
        String nameFilter = blankToNull(qname);
        String page = blankToNull(before);
        Fetched<List<Anomaly>> anomalies = backends.fetch(Backend.EGRESS_SERVICE,
                () -> egressService.anomalies(id, PAGE_SIZE, page, reasonFilter, nameFilter));
        List<AnomalyRow> rows = anomalies.failed() ? List.of()
                : anomalies.value().stream().map(a -> AnomalyRows.of(a, name)).toList();
        String base = "/companies/" + id + "/egress";
        String filters = query("reason", reasonFilter) + query("qname", nameFilter);
        String older = rows.size() == PAGE_SIZE
                ? base + "?before=" + encode(rows.get(rows.size() - 1).lastSeenIso()) + filters : null;
        String newest = page == null ? null : base + (filters.isEmpty() ? "" : "?" + filters.substring(1));
        String stream = base + "/live" + (filters.isEmpty() ? "" : "?" + filters.substring(1));
        Views.Chart chart = EgressCharts.of("egress-chart", "Egress of " + name + ", last 24 hours",
                backends.fetch(Backend.EGRESS_SERVICE, () -> egressService.hourly(id, EgressCharts.HOURS)),
                Instant.now());
        return new Views.Egress(id.toString(), name, policy, allowlist, chart, new Views.Denials(id.toString(), rows,
                anomalies.error(), AnomalyRows.reasonOptions(reasonFilter), nameFilter == null ? "" : nameFilter,
                older, newest, page == null, stream));
    }

    private static String query(String name, String value) {
        return value == null ? "" : "&" + name + "=" + encode(value);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
