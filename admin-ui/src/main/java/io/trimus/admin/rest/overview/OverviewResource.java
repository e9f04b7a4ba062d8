package io.trimus.admin.rest.overview;

import io.quarkus.qute.TemplateInstance;
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
import io.trimus.admin.view.EgressCharts;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.Views;
import io.trimus.admin.view.Views.NameCount;
import io.trimus.admin.view.Views.StatusCount;
import io.trimus.events.auth.Caller;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.Map;

/**
 * The overview page: runs by status, denials in the last hour, the most denied names, every company's allowed
 * connections and denials per hour; its live anomaly ticker is {@code /live/anomalies}
 * ({@link io.trimus.admin.rest.live.LiveResource}).
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
    private final SignedIn signedIn;

    OverviewResource(Backends backends, RunServiceApi runService, EgressServiceApi egressService, CompanyNames names,
                     SignedIn signedIn) {
        this.signedIn = signedIn;
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
        this.names = names;
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
}
