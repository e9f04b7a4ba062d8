package io.trimus.admin.rest.egress;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.auth.SignedIn;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.CompanyNames;
import io.trimus.admin.client.EgressServiceApi;
import io.trimus.admin.client.EgressServiceApi.AnomalyGroup;
import io.trimus.admin.client.EgressServiceApi.AnomalySummary;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.rest.PageForbidden;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.Views;
import io.trimus.admin.view.Views.CompanyGroups;
import io.trimus.admin.view.Views.NameCount;
import io.trimus.admin.view.Views.Option;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The operator view: denied lookups of every company, grouped by company and name with their counts, over a
 * window. egress-service aggregates; this page reads one page of groups at a time.
 */
@Path("/anomalies")
public class AnomaliesResource {
    static final int PAGE_SIZE = 100;
    static final int MAX_OFFSET = 100_000;
    static final Map<String, Duration> WINDOWS = windows();

    private final Backends backends;
    private final EgressServiceApi egressService;
    private final CompanyNames names;
    private final SignedIn signedIn;

    AnomaliesResource(Backends backends, EgressServiceApi egressService, CompanyNames names, SignedIn signedIn) {
        this.signedIn = signedIn;
        this.backends = backends;
        this.egressService = egressService;
        this.names = names;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance anomalies(@QueryParam("window") String window, @QueryParam("offset") String offset) {
        if (!signedIn.caller().operator()) {
            throw new PageForbidden("Every company's anomalies are for the platform's operators; see your company's "
                    + "egress page instead.");
        }
        String w = window == null || window.isBlank() ? "24h" : window.strip();
        Duration length = WINDOWS.get(w);
        if (length == null) {
            throw new PageNotFound("There is no time window \"" + window + "\"; choose one of "
                    + String.join(", ", WINDOWS.keySet()) + ".");
        }
        int skip = offset(offset);
        Fetched<AnomalySummary> summary = backends.fetch(Backend.EGRESS_SERVICE,
                auth -> egressService.summary(auth, Instant.now().minus(length), skip, PAGE_SIZE));
        List<AnomalyGroup> groups = summary.failed() ? List.of() : summary.value().groups();

        // the groups come most recent first; companies keep the order of their most recent group
        Map<String, List<NameCount>> byCompany = new LinkedHashMap<>();
        for (AnomalyGroup g : groups) {
            String company = Objects.toString(g.companyId(), "");
            byCompany.computeIfAbsent(company, k -> new ArrayList<>()).add(new NameCount(g.companyId() == null
                    ? null : company, names.of(g.companyId()), g.qname(), g.lookups(), g.events(),
                    Times.utc(g.lastSeen())));
        }
        List<CompanyGroups> companies = byCompany.entrySet().stream()
                .map(e -> new CompanyGroups(e.getKey().isEmpty() ? null : e.getKey(), e.getValue().get(0).companyName(),
                        e.getValue().stream().mapToLong(NameCount::lookups).sum(), e.getValue()))
                .toList();
        String older = groups.size() == PAGE_SIZE && skip + PAGE_SIZE <= MAX_OFFSET
                ? "/anomalies?window=" + w + "&offset=" + (skip + PAGE_SIZE) : null;
        String newer = skip == 0 ? null : "/anomalies?window=" + w + "&offset=" + Math.max(0, skip - PAGE_SIZE);
        List<Option> options = WINDOWS.keySet().stream().map(k -> new Option(k, label(k), k.equals(w))).toList();
        return Templates.anomalies(new Views.Operator(label(w), options, companies, summary.error(), older, newer,
                groups.isEmpty() ? 0 : skip + 1, skip + groups.size()));
    }

    private static int offset(String offset) {
        if (offset == null || offset.isBlank()) {
            return 0;
        }
        try {
            int n = Integer.parseInt(offset.strip());
            if (n >= 0 && n <= MAX_OFFSET) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new PageNotFound("There is no page at offset \"" + offset + "\".");
    }

    private static String label(String window) {
        return switch (window) {
            case "1h" -> "the last hour";
            case "24h" -> "the last 24 hours";
            case "7d" -> "the last 7 days";
            default -> "the last 30 days";
        };
    }

    private static Map<String, Duration> windows() {
        Map<String, Duration> windows = new LinkedHashMap<>();
        windows.put("1h", Duration.ofHours(1));
        windows.put("24h", Duration.ofHours(24));
        windows.put("7d", Duration.ofDays(7));
        windows.put("30d", Duration.ofDays(30));
        return windows;
    }
}
