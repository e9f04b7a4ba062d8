package io.trimus.run.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.IssueRef;
import io.trimus.events.RunState;
import io.trimus.events.RunUsage;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.run.Run;
import io.trimus.run.service.run.RunChanges;
import io.trimus.run.service.run.RunService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/** HTTP face of runs: start one for an agent, read, list and cancel. */
@Path("/api/companies/{company_id}")
@Produces(MediaType.APPLICATION_JSON)
public class RunResource {
    private static final int DEFAULT_LIMIT = 50;

    private final RunService runs;
    private final RunChanges changes;
    private final TrimusConfig config;

    RunResource(RunService runs, RunChanges changes, TrimusConfig config) {
        this.runs = runs;
        this.changes = changes;
        this.config = config;
    }

    /** Body of POST …/runs; both parts optional. */
    public record StartRun(IssueRef issue, String input) {
    }

    /** The answer to an accepted run or cancel: where it stands now. */
    public record RunAccepted(UUID id, RunState status) {
    }

    /**
     * A run as the API shows it; {@code peer_task_id} is the task id an A2A peer gave it (null for other runs). For an
     * agent CLI's run {@code output} is the CLI's answer, {@code raw_output} the tail of what it printed and
     * {@code usage} what it reported it used; both are null for every other run, and {@code usage} when the CLI
     * reported nothing.
     */
    public record RunView(UUID id, UUID companyId, UUID agentId, String adapterType, RunState status,
                          Integer exitCode, String output, String error, IssueRef issue, Instant queuedAt,
                          Instant dispatchedAt, Instant startedAt, Instant finishedAt, List<String> notes,
                          String peerTaskId, String rawOutput, RunUsage usage) {
        static RunView of(Run r) {
            IssueRef issue = r.issueId == null && r.issueTitle == null && r.issueBody == null
                    ? null : new IssueRef(r.issueId, r.issueTitle, r.issueBody);
            return new RunView(r.id, r.companyId, r.agentId, r.adapterType, r.status, r.exitCode, r.output, r.error,
                    issue, r.queuedAt, r.dispatchedAt, r.startedAt, r.finishedAt,
                    r.notes == null ? List.of() : List.of(r.notes.split("\n")), r.peerTaskId, r.rawOutput, r.usage());
        }
    }

    @POST
    @Path("/agents/{agent_id}/runs")
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.MEMBER)
    public Uni<RestResponse<RunAccepted>> start(@PathParam("company_id") String companyId,
                                                @PathParam("agent_id") String agentId, StartRun body) {
        UUID company = Ids.parse("company_id", companyId);
        UUID agent = Ids.parse("agent_id", agentId);
        StartRun request = body == null ? new StartRun(null, null) : body;
        return runs.accept(company, agent, request.issue(), request.input(), null)
                .map(run -> RestResponse.ResponseBuilder
                        .accepted(new RunAccepted(run.id, run.status))
                        .location(URI.create("/api/companies/" + company + "/runs/" + run.id)).build());
    }

    @GET
    @Path("/runs/{run_id}")
    @Allowed(Access.VIEWER)
    public Uni<RunView> get(@PathParam("company_id") String companyId, @PathParam("run_id") String runId) {
        return runs.get(Ids.parse("company_id", companyId), Ids.parse("run_id", runId)).map(RunView::of);
    }

    @GET
    @Path("/runs")
    @Allowed(Access.VIEWER)
    public Uni<List<RunView>> list(@PathParam("company_id") String companyId, @QueryParam("status") String status,
                                   @QueryParam("limit") String limit) {
        return runs.latest(Ids.parse("company_id", companyId), status(status), limit(limit))
                .map(list -> list.stream().map(RunView::of).toList());
    }

    @POST
    @Path("/runs/{run_id}/cancel")
    @Allowed(Access.MEMBER)
    public Uni<RestResponse<RunAccepted>> cancel(@PathParam("company_id") String companyId,
                                                 @PathParam("run_id") String runId) {
        return runs.cancel(Ids.parse("company_id", companyId), Ids.parse("run_id", runId))
                .invoke(run -> changes.changed(run.id))   // committed: a run withdrawn before dispatch ended here
                .map(run -> RestResponse.accepted(new RunAccepted(run.id, run.status)));
    }

    private static RunState status(String status) {
        if (status == null || status.isBlank()) {
            return null;
        }
        try {
            return RunState.valueOf(status.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ProblemException.invalid("status", "must be one of " + Arrays.toString(RunState.values()));
        }
    }

    private int limit(String limit) {
        return Limits.parse(limit, DEFAULT_LIMIT, config.run().listMaxLimit());
    }
}
