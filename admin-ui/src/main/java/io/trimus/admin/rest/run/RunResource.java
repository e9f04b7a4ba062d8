package io.trimus.admin.rest.run;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.Backend;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.EgressServiceApi;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.client.RunServiceApi.Agent;
import io.trimus.admin.client.RunServiceApi.Company;
import io.trimus.admin.client.RunServiceApi.Run;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Times;
import io.trimus.admin.view.UsageWords;
import io.trimus.admin.view.Views;
import io.trimus.admin.view.Views.Network;
import io.trimus.admin.view.Views.Step;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A run in detail: its timeline, outcome, output (redacted by the backends; an agent CLI's answer, with what it
 * printed and the usage it reported), the isolation that applied and what it talked to through the egress proxy.
 */
@Path("/companies/{company_id}/runs/{run_id}")
@Produces(MediaType.TEXT_HTML)
public class RunResource {
    static final Set<String> TERMINAL = Set.of("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED");

    private final Backends backends;
    private final RunServiceApi runService;
    private final EgressServiceApi egressService;

    RunResource(Backends backends, RunServiceApi runService, EgressServiceApi egressService) {
        this.backends = backends;
        this.runService = runService;
        this.egressService = egressService;
    }

    @GET
    public TemplateInstance run(@PathParam("company_id") String companyId, @PathParam("run_id") String runId) {
        UUID company = PageNotFound.id("company", companyId);
        UUID id = PageNotFound.id("run", runId);
        Company c = backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, company));
        Run run = backends.call(Backend.RUN_SERVICE, auth -> runService.run(auth, company, id));
        Fetched<Agent> agent = backends.fetch(Backend.RUN_SERVICE, auth -> runService.agent(auth, company, run.agentId()));
        String issue = run.issue() == null ? null : String.join(" ", List.of(
                run.issue().id() == null ? "" : run.issue().id(),
                run.issue().title() == null ? "" : run.issue().title())).strip();
        return Templates.run(new Views.RunDetail(company.toString(), c.name(), id.toString(), run.status(),
                TERMINAL.contains(run.status()), run.adapterType(),
                agent.failed() ? null : agent.value().name(), run.agentId().toString(),
                run.exitCode() == null ? "—" : run.exitCode().toString(),
                run.output() == null ? "" : run.output(), run.error(), issue,
                timeline(run), agent.failed() ? List.of()
                : IsolationView.flags(run.adapterType(), agent.value().adapterConfig()),
                IsolationView.summary(run.adapterType()),
                agent.failed() ? "The agent's configuration could not be read: " + agent.error() : null,
                run.notes() == null ? List.of() : run.notes(), network(company, id), run.peerTaskId(),
                run.rawOutput(), UsageWords.facts(run.usage())));
    }

    private Network network(UUID company, UUID run) {
        try {
            // the page shows totals only: one connection of the list is enough to ask for
            return NetworkView.of(backends.call(Backend.EGRESS_SERVICE, auth -> egressService.runEgress(auth, company, run, 1)));
        } catch (BackendException e) {
            return e.kind() == BackendException.Kind.NOT_FOUND ? NetworkView.of(null) : NetworkView.failed(e.getMessage());
        }
    }

    private static List<Step> timeline(Run run) {
        String end = run.status() != null && TERMINAL.contains(run.status())
                ? "Finished (" + run.status() + ")" : "Finished";
        return List.of(step("Queued", run.queuedAt()), step("Dispatched", run.dispatchedAt()),
                step("Started", run.startedAt()), step(end, run.finishedAt()));
    }

    private static Step step(String label, Instant at) {
        return new Step(label, Times.utc(at), Times.iso(at), at != null);
    }
}
