package io.trimus.admin.rest.company;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.EgressServiceApi;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.client.RunServiceApi.Agent;
import io.trimus.admin.client.RunServiceApi.Company;
import io.trimus.admin.client.RunServiceApi.Run;
import io.trimus.admin.client.RunServiceApi.UsageSummary;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.CanaryViews;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.UsageWords;
import io.trimus.admin.view.Views;
import io.trimus.admin.view.Views.AgentRow;
import io.trimus.admin.view.Views.CompanyRow;
import io.trimus.admin.view.Views.RunRow;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The company list and a company's page: its agents (with their isolation, and a warning when a sandboxed CLI's
 * provider host is not on the allowlist), latest runs, what its agents' runs reported they used in the last 30 days
 * and its egress canaries ({@link CanaryResource} for the panel alone).
 */
@Path("/companies")
@Produces(MediaType.TEXT_HTML)
public class CompanyResource {
    static final int PAGE_SIZE = 50;
    static final int RECENT_RUNS = 20;
    static final int MAX_WARNINGS = 10;

    private final Backends backends;
    private final RunServiceApi runService;
    private final EgressServiceApi egressService;
    private final CanaryPanels canaries;

    CompanyResource(Backends backends, RunServiceApi runService, EgressServiceApi egressService,
                    CanaryPanels canaries) {
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
        this.canaries = canaries;
    }

    @GET
    public TemplateInstance list(@QueryParam("after") String after) {
        UUID last = after == null || after.isBlank() ? null : PageNotFound.id("company", after);
        Fetched<List<Company>> page = backends.fetch(Backend.RUN_SERVICE, auth -> runService.companies(auth, PAGE_SIZE, last));
        Map<UUID, String> canary = page.failed() ? Map.of()
                : canaries.statuses(page.value().stream().map(Company::id).toList());
        List<CompanyRow> rows = page.failed() ? List.of() : page.value().stream()
                .map(c -> new CompanyRow(c.id().toString(), c.name(), Times.utc(c.createdAt()), canary.get(c.id()),
                        canary.containsKey(c.id()) ? CanaryViews.statusText(canary.get(c.id())) : null)).toList();
        String next = rows.size() == PAGE_SIZE ? rows.get(rows.size() - 1).id() : null;
        return Templates.companies(new Views.Companies(rows, page.error(), next, last == null));
    }

    @GET
    @Path("/{company_id}")
    public TemplateInstance company(@PathParam("company_id") String companyId) {
        UUID id = PageNotFound.id("company", companyId);
        Company company = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, id));
        Fetched<List<Agent>> agents = backends.fetch(Backend.RUN_SERVICE, auth -> runService.agents(auth, id));
        Fetched<List<Run>> runs = backends.fetch(Backend.RUN_SERVICE, auth -> runService.runs(auth, id, RECENT_RUNS));
        boolean needsAllowlist = !agents.failed()
                && agents.value().stream().anyMatch(a -> ProviderHosts.of(a.adapterType()).isPresent());
        // only asked when an agent depends on it
        Fetched<List<String>> allowlist = needsAllowlist ? backends.fetch(Backend.EGRESS_SERVICE,
                auth -> egressService.allowlist(auth, id).texts()) : Fetched.of(List.of());
        Fetched<UsageSummary> usage = backends.fetch(Backend.RUN_SERVICE, auth -> runService.usage(auth, id));
        Map<UUID, String> names = agents.failed() ? Map.of() : agents.value().stream()
                .collect(Collectors.toMap(Agent::id, Agent::name, (a, b) -> a));
        return Templates.company(new Views.Company(id.toString(), company.name(),
                agents.failed() ? List.of() : agents.value().stream().map(a -> agentRow(a, allowlist)).toList(),
                agents.error(),
                runs.failed() ? List.of() : runs.value().stream().map(CompanyResource::runRow).toList(),
                runs.error(), usage.failed() ? List.of() : usage.value().byAgent().stream()
                        .map(u -> UsageWords.row(u.agentId().toString(), names.getOrDefault(u.agentId(),
                                u.agentId().toString()), u)).toList(),
                usage.failed() || usage.value().totals().runs() == 0 ? null
                        : UsageWords.row(null, "All agents", usage.value().totals()), usage.error(),
                canaries.latest(id)));
    }

    private static AgentRow agentRow(Agent a, Fetched<List<String>> allowlist) {
        String isolation = a.isolation() == null ? "unknown" : a.isolation();
        String text = switch (isolation) {
            case "host" -> "host: runs as a process on the host, no isolation";
            case "container" -> "container: hardened container, read-only root, capabilities dropped";
            case "off-host" -> "off-host: runs on another machine or endpoint";
            default -> isolation;
        };
        List<String> warnings = new ArrayList<>();
        if (a.warnings() != null) {
            a.warnings().stream().filter(w -> w != null && !w.isBlank()).limit(MAX_WARNINGS).forEach(warnings::add);
        }
        if (allowlist.failed()) {
            ProviderHosts.of(a.adapterType()).ifPresent(host -> warnings.add("Whether " + host
                    + " is on this company's allowlist is unknown: " + allowlist.error()));
        } else {
            ProviderHosts.warning(a.adapterType(), allowlist.value())
                    .filter(w -> !warnings.contains(w)).ifPresent(warnings::add);
        }
        return new AgentRow(a.id().toString(), a.name(), a.adapterType(), isolation, text, warnings);
    }

    static RunRow runRow(Run r) {
        String issue = r.issue() == null ? "" : (r.issue().id() == null ? "" : r.issue().id() + " ")
                + (r.issue().title() == null ? "" : r.issue().title());
        return new RunRow(r.id().toString(), r.companyId().toString(), r.status(), r.adapterType(), issue.strip(),
                Times.utc(r.queuedAt()), Times.utc(r.finishedAt()),
                r.exitCode() == null ? "—" : r.exitCode().toString());
    }
}
