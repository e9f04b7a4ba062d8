package io.trimus.admin.rest;

import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.common.annotation.Blocking;
import io.trimus.admin.auth.LiveCaller;
import io.trimus.admin.auth.LiveCallers;
import io.trimus.admin.auth.SignedIn;
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
import io.trimus.events.auth.Caller;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.Map;

/**
 * The overview page: runs by status, denials in the last hour, the most denied names, every company's allowed
 * connections and denials per hour, a live anomaly ticker.
 */
@Path("/")
public class OverviewResource {
    static final List<String> STATES = List.of("QUEUED", "DISPATCHED", "RUNNING", "SUCCEEDED", "FAILED", "TIMED_OUT",
            "CANCELLED", "REJECTED");
    static final int MAX_OWN_COMPANIES = 20;

    private final Backends backends;
    private final RunServiceApi runService;
    private final EgressServiceApi egressService;
    private final CompanyNames names;
    private final LiveFeed feed;
    private final SignedIn signedIn;
    private final LiveCallers liveCallers;

    OverviewResource(Backends backends, RunServiceApi runService, EgressServiceApi egressService, CompanyNames names,
                     LiveFeed feed, SignedIn signedIn, LiveCallers liveCallers) {
        this.signedIn = signedIn;
        this.liveCallers = liveCallers;
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
        this.names = names;
        this.feed = feed;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance overview() {
        return signedIn.caller().operator() ? platform() : ownCompanies(signedIn.caller());
    }

    /** Operators: every company's runs, denials, most denied names and egress. */
    private TemplateInstance platform() {
        Fetched<RunSummary> runs = backends.fetch(Backend.RUN_SERVICE, auth -> runService.summary(auth, null));
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        Fetched<DenialCount> denials = backends.fetch(Backend.EGRESS_SERVICE,
                auth -> egressService.count(auth, hourAgo, null));
        Fetched<AnomalySummary> top = backends.fetch(Backend.EGRESS_SERVICE,
                auth -> egressService.summary(auth, Instant.now().minus(Duration.ofHours(24)), 0, 5));
        Fetched<EgressServiceApi.Hourly> hourly = backends.fetch(Backend.EGRESS_SERVICE,
                auth -> egressService.hourly(auth, EgressCharts.HOURS));

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

    /**
     * Everyone else: runs and denials of the caller's own companies (the first {@value #MAX_OWN_COMPANIES}), summed;
     * the cross-company parts (most denied names, egress of all companies, the live ticker) are the operators'.
     */
    private TemplateInstance ownCompanies(Caller caller) {
        List<UUID> companies = caller.companies().stream().map(Caller.Membership::companyId)
                .limit(MAX_OWN_COMPANIES).toList();
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        Map<String, Long> byStatus = new HashMap<>();
        long total = 0;
        long lookups = 0;
        long events = 0;
        String runsError = null;
        String denialsError = null;
        for (UUID company : companies) {
            Fetched<RunSummary> runs = backends.fetch(Backend.RUN_SERVICE, auth -> runService.summary(auth, company));
            if (runs.failed()) {
                runsError = runs.error();
            } else {
                runs.value().byStatus().forEach((status, n) -> byStatus.merge(status, n, Long::sum));
                total += runs.value().total();
            }
            Fetched<DenialCount> denials = backends.fetch(Backend.EGRESS_SERVICE,
                    auth -> egressService.count(auth, hourAgo, company));
            if (denials.failed()) {
                denialsError = denials.error();
            } else {
                lookups += denials.value().lookups();
                events += denials.value().events();
            }
        }
        List<StatusCount> counts = STATES.stream().map(s -> new StatusCount(s, byStatus.getOrDefault(s, 0L))).toList();
        return Templates.overview(new Views.Overview(counts, total, runsError, lookups, events, denialsError,
                List.of(), null, new Views.Chart(null, null, 0, 0)));
    }

    /** Every company's anomalies as ticker items, live: operators only, ending when the caller is no longer one. */
    @GET
    @Path("/live/anomalies")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Blocking // the access gate asks run-service who calls
    public Multi<OutboundSseEvent> anomalies(@Context Sse sse) {
        if (!signedIn.caller().operator()) {
            throw new PageForbidden("Only the platform's operators see every company's anomalies.");
        }
        String authorization = signedIn.authorization(); // names are looked up outside this request
        return SseStreams.of(sse, "anomaly", feed.anomalies()
                .emitOn(Infrastructure.getDefaultWorkerPool()) // the company's name may need a run-service call
                .map(a -> Templates.overview$ticker_item(AnomalyRows.of(a, names.of(a.companyId(), authorization)))
                        .render()), liveCallers.watch(Caller::operator));
    }

    /**
     * Run status changes as bare signals (event {@code run-status}, data = the run id): pages re-read what they
     * show from run-service, which has applied the change by then or shortly after. Only the runs of the caller's
     * companies as run-service last said (re-checked while the stream is open).
     */
    @GET
    @Path("/live/runs")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Blocking // the access gate asks run-service who calls
    public Multi<OutboundSseEvent> runs(@Context Sse sse, @jakarta.ws.rs.QueryParam("run_id") String runId) {
        UUID only = runId == null || runId.isBlank() ? null : PageNotFound.id("run", runId);
        LiveCaller caller = liveCallers.watch(c -> true);
        return SseStreams.of(sse, "run-status", feed.runStatuses()
                .filter(s -> mayRead(caller.current(), s.companyId()))
                .filter(s -> only == null || only.equals(s.runId()))
                .map(s -> s.runId() + " " + s.status()), caller);
    }

    // a company's runs only to its own people
    private static boolean mayRead(Caller caller, UUID companyId) {
        return caller.operator() || (companyId != null && caller.roleIn(companyId).isPresent());
    }
}
