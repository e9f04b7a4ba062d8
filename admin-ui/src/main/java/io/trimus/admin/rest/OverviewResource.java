package io.trimus.admin.rest;

import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.CompanyNames;
import io.trimus.admin.client.EgressServiceApi;
import io.trimus.admin.client.EgressServiceApi.AnomalySummary;
import io.trimus.admin.client.EgressServiceApi.DenialCount;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.client.RunServiceApi.RunSummary;
import io.trimus.admin.messaging.LiveFeed;
import io.trimus.admin.rest.Views.NameCount;
import io.trimus.admin.rest.Views.StatusCount;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The overview page: runs by status, denials in the last hour, the most denied names, every company's allowed
 * connections and denials per hour, a live anomaly ticker.
 */
@Path("/")
public class OverviewResource {
    static final List<String> STATES = List.of("QUEUED", "DISPATCHED", "RUNNING", "SUCCEEDED", "FAILED", "TIMED_OUT",
            "CANCELLED", "REJECTED");

    private final Backends backends;
    private final RunServiceApi runService;
    private final EgressServiceApi egressService;
    private final CompanyNames names;
    private final LiveFeed feed;

    OverviewResource(Backends backends, RunServiceApi runService, EgressServiceApi egressService, CompanyNames names,
                     LiveFeed feed) {
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
        this.names = names;
        this.feed = feed;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance overview() {
        Fetched<RunSummary> runs = backends.fetch(Backend.RUN_SERVICE, runService::summary);
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        Fetched<DenialCount> denials = backends.fetch(Backend.EGRESS_SERVICE, () -> egressService.count(hourAgo));
        Fetched<AnomalySummary> top = backends.fetch(Backend.EGRESS_SERVICE,
                () -> egressService.summary(Instant.now().minus(Duration.ofHours(24)), 0, 5));

        Fetched<EgressServiceApi.Hourly> hourly = backends.fetch(Backend.EGRESS_SERVICE,
                () -> egressService.hourly(EgressCharts.HOURS));

        Map<String, Long> byStatus = runs.failed() ? Map.of() : runs.value().byStatus();
        List<StatusCount> counts = STATES.stream().map(s -> new StatusCount(s, byStatus.getOrDefault(s, 0L))).toList();
        List<NameCount> topNames = top.failed() ? List.of() : top.value().groups().stream()
                .map(g -> new NameCount(g.companyId() == null ? null : g.companyId().toString(),
                        names.of(g.companyId()), g.qname(), g.lookups(), g.events(), Times.utc(g.lastSeen())))
                .toList();
        return Templates.overview(new Views.Overview(counts, runs.failed() ? 0 : runs.value().total(), runs.error(),
                denials.failed() ? 0 : denials.value().lookups(), denials.failed() ? 0 : denials.value().events(),
                denials.error(), topNames, top.error(),
                EgressCharts.of("egress-chart", "Egress of all companies, last 24 hours", hourly, Instant.now())));
    }

    /** Every company's anomalies as ticker items, live. */
    @GET
    @Path("/live/anomalies")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> anomalies(@Context Sse sse) {
        return SseStreams.of(sse, "anomaly", feed.anomalies()
                .emitOn(Infrastructure.getDefaultWorkerPool()) // the company's name may need a run-service call
                .map(a -> Templates.overview$ticker_item(AnomalyRows.of(a, names.of(a.companyId()))).render()));
    }

    /**
     * Run status changes as bare signals (event {@code run-status}, data = the run id): pages re-read what they
     * show from run-service, which has applied the change by then or shortly after.
     */
    @GET
    @Path("/live/runs")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> runs(@Context Sse sse, @jakarta.ws.rs.QueryParam("run_id") String runId) {
        java.util.UUID only = runId == null || runId.isBlank() ? null : PageNotFound.id("run", runId);
        return SseStreams.of(sse, "run-status", feed.runStatuses()
                .filter(s -> only == null || only.equals(s.runId()))
                .map(s -> s.runId() + " " + s.status()));
    }
}
