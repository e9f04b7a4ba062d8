package io.trimus.admin.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The part of run-service's REST API the dashboard reads; built by {@link Backends}. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface RunServiceApi {
    /** Every call carries the signed-in caller's credential: the dashboard acts as that caller, never as itself. */
    String AUTHORIZATION = "Authorization";

    @GET
    @Path("/companies")
    List<Company> companies(@HeaderParam(AUTHORIZATION) String auth,
                            @QueryParam("limit") int limit, @QueryParam("after") UUID after);

    @GET
    @Path("/companies/{company_id}")
    Company company(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    @GET
    @Path("/companies/{company_id}/agents")
    List<Agent> agents(@HeaderParam(AUTHORIZATION) String auth, @PathParam("company_id") UUID companyId);

    @GET
    @Path("/companies/{company_id}/agents/{agent_id}")
    Agent agent(@HeaderParam(AUTHORIZATION) String auth,
                @PathParam("company_id") UUID companyId, @PathParam("agent_id") UUID agentId);

    @GET
    @Path("/companies/{company_id}/runs")
    List<Run> runs(@HeaderParam(AUTHORIZATION) String auth,
                   @PathParam("company_id") UUID companyId, @QueryParam("limit") int limit);

    @GET
    @Path("/companies/{company_id}/runs/{run_id}")
    Run run(@HeaderParam(AUTHORIZATION) String auth,
            @PathParam("company_id") UUID companyId, @PathParam("run_id") UUID runId);

    @GET
    @Path("/runs/summary")
    RunSummary summary(@HeaderParam(AUTHORIZATION) String auth, @QueryParam("company_id") UUID companyId);

    /** What runs reported they used over the last 30 days (run-service's default period), per agent of the company. */
    @GET
    @Path("/runs/usage")
    UsageSummary usage(@HeaderParam(AUTHORIZATION) String auth, @QueryParam("company_id") UUID companyId);

    /** A company (tenant). */
    record Company(UUID id, String name, Instant createdAt) {
    }

    /**
     * An agent; {@code isolation} is run-service's word for where its code runs: host, container or off-host.
     * {@code warnings}, when run-service sends them, say what will keep the agent from working.
     */
    record Agent(UUID id, UUID companyId, String name, String adapterType, String isolation, JsonNode adapterConfig,
                 Instant createdAt, List<String> warnings) {
    }

    /**
     * A run with its outcome; {@code output} (an agent CLI's answer) and {@code rawOutput} (what the CLI printed) are
     * already redacted by the backends. {@code peerTaskId} is the A2A peer's task a remote run was delegated to;
     * {@code usage} what the run's CLI reported it used, null when it reported nothing.
     */
    record Run(UUID id, UUID companyId, UUID agentId, String adapterType, String status, Integer exitCode,
               String output, String error, Issue issue, Instant queuedAt, Instant dispatchedAt, Instant startedAt,
               Instant finishedAt, List<String> notes, String peerTaskId, String rawOutput, Usage usage) {
    }

    /** What a run's agent CLI reported it used; every figure null when the CLI did not report it. */
    record Usage(Long inputTokens, Long outputTokens, Long cacheReadTokens, Long cacheWriteTokens,
                 Long reasoningTokens, BigDecimal costUsd, String model, Long apiDurationMs, Integer turns) {
    }

    /** Usage summed per agent over a period, and over all of them ({@code totals}, without an agent). */
    record UsageSummary(Instant since, Instant until, List<AgentUsage> byAgent, AgentUsage totals,
                        boolean truncated) {
    }

    /** The runs of one agent that finished in the period and the usage they reported; a sum is null when none did. */
    record AgentUsage(UUID agentId, long runs, long runsWithUsage, Long inputTokens, Long outputTokens,
                      Long cacheReadTokens, Long cacheWriteTokens, Long reasoningTokens, BigDecimal costUsd) {
    }

    /** The issue a run works on. */
    record Issue(String id, String title, String body) {
    }

    /** Runs per state across all companies. */
    record RunSummary(Map<String, Long> byStatus, long total) {
    }
}
