package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.run.repository.run.UsageSums;
import io.trimus.run.service.run.UsagePeriod;
import io.trimus.run.service.run.UsageSummaries;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What runs reported they used (tokens, cost), summed per company and agent over a period: for one company (its
 * viewers) or every company (operators), as {@code GET /api/runs/summary} counts them.
 */
@Path("/api/runs/usage")
@Produces(MediaType.APPLICATION_JSON)
public class RunUsageResource {
    private final UsageSummaries summaries;
    private final Clock clock;

    RunUsageResource(UsageSummaries summaries, Clock clock) {
        this.summaries = summaries;
        this.clock = clock;
    }

    /**
     * The usage summary: the period, one row per agent with finished runs in it, the totals, and whether the rows were
     * cut at {@link UsageSummaries#MAX_AGENTS}. A sum is null when no run reported that figure.
     */
    public record UsageSummary(UUID companyId, UUID agentId, Instant since, Instant until, List<AgentUsage> byAgent,
                               Usage totals, boolean truncated) {
    }

    /** The runs of one agent that finished in the period, and what they reported they used. */
    public record AgentUsage(UUID companyId, UUID agentId, long runs, long runsWithUsage, Long inputTokens,
                             Long outputTokens, Long cacheReadTokens, Long cacheWriteTokens, Long reasoningTokens,
                             BigDecimal costUsd) {
        static AgentUsage of(UsageSums s) {
            return new AgentUsage(s.companyId(), s.agentId(), s.runs(), s.runsWithUsage(), s.inputTokens(),
                    s.outputTokens(), s.cacheReadTokens(), s.cacheWriteTokens(), s.reasoningTokens(),
                    plain(s.costUsd()));
        }
    }

    /** The same figures over every run the summary covers. */
    public record Usage(long runs, long runsWithUsage, Long inputTokens, Long outputTokens, Long cacheReadTokens,
                        Long cacheWriteTokens, Long reasoningTokens, BigDecimal costUsd) {
        static Usage of(UsageSums s) {
            return new Usage(s.runs(), s.runsWithUsage(), s.inputTokens(), s.outputTokens(), s.cacheReadTokens(),
                    s.cacheWriteTokens(), s.reasoningTokens(), plain(s.costUsd()));
        }
    }

    /** 0.750000 as 0.75 and 3.000000 as 3, never 1E+1. */
    private static BigDecimal plain(BigDecimal usd) {
        if (usd == null) {
            return null;
        }
        BigDecimal stripped = usd.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    /** Sums across all companies (operators), or only {@code company_id}'s (404 when it does not exist). */
    @GET
    @Allowed(Access.VIEWER)
    public Uni<UsageSummary> usage(@QueryParam("company_id") String companyId, @QueryParam("agent_id") String agentId,
                                   @QueryParam("since") String since, @QueryParam("until") String until) {
        UUID company = companyId == null || companyId.isBlank() ? null : Ids.parse("company_id", companyId.strip());
        UUID agent = agentId == null || agentId.isBlank() ? null : Ids.parse("agent_id", agentId.strip());
        UsagePeriod period = UsagePeriod.of(since, until, clock.instant());
        return summaries.sum(company, agent, period).map(s -> new UsageSummary(company, agent, period.since(),
                period.until(), s.byAgent().stream().map(AgentUsage::of).toList(), Usage.of(s.totals()),
                s.truncated()));
    }
}
