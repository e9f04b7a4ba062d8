package io.trimus.run.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.events.RunState;
import io.trimus.run.service.run.RunService;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;
import java.util.UUID;

/** How many runs are in each state: the dashboard's overview, for all companies or one. */
@Path("/api/runs/summary")
@Produces(MediaType.APPLICATION_JSON)
public class RunSummaryResource {
    private final RunService runs;

    RunSummaryResource(RunService runs) {
        this.runs = runs;
    }

    /** Runs per state, every state present (0 when none), and their total. */
    public record RunSummary(UUID companyId, Map<RunState, Long> byStatus, long total) {
    }

    /** Counts across all companies, or only {@code company_id}'s (404 when it does not exist). */
    @GET
    @Allowed(Access.VIEWER)
    public Uni<RunSummary> summary(@QueryParam("company_id") String companyId) {
        UUID company = companyId == null || companyId.isBlank() ? null : Ids.parse("company_id", companyId.strip());
        return runs.countByStatus(company).map(counts -> new RunSummary(company, counts,
                counts.values().stream().mapToLong(Long::longValue).sum()));
    }
}
