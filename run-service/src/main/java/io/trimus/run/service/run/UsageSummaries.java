package io.trimus.run.service.run;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.run.repository.run.RunRepository;
import io.trimus.run.repository.run.UsageSums;
import io.trimus.run.service.company.CompanyService;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.UUID;

/**
 * What runs reported they used, summed per company and agent over a period by PostgreSQL: for one company (its
 * members) or every company the caller may see (operators: all), the transaction's row-level security deciding
 * which runs count.
 */
@ApplicationScoped
public class UsageSummaries {
    /** The most agents one summary lists; only a summary across many companies can reach it. */
    public static final int MAX_AGENTS = 1000;

    private final RunRepository runs;
    private final CompanyService companies;

    UsageSummaries(RunRepository runs, CompanyService companies) {
        this.runs = runs;
        this.companies = companies;
    }

    /**
     * One company's agents, or all of them: the sums per agent by company and agent id, at most {@link #MAX_AGENTS}
     * ({@code truncated} when there were more), and the totals over every run of the period however many agents.
     */
    public record Summary(List<UsageSums> byAgent, UsageSums totals, boolean truncated) {
    }

    /**
     * The usage of the runs that finished in {@code period}, of {@code companyId}'s agents (a 404 problem when it does
     * not exist) or of every visible company's when null, only of {@code agentId} when given.
     */
    @TenantTransaction
    public Uni<Summary> sum(UUID companyId, UUID agentId, UsagePeriod period) {
        Uni<?> exists = companyId == null ? Uni.createFrom().voidItem() : companies.get(companyId);
        return exists.flatMap(ignored -> runs.usageByAgent(companyId, agentId, period.since(), period.until(),
                        MAX_AGENTS + 1))
                .flatMap(rows -> runs.usageTotals(companyId, agentId, period.since(), period.until())
                        .map(totals -> new Summary(rows.size() > MAX_AGENTS ? rows.subList(0, MAX_AGENTS) : rows,
                                totals, rows.size() > MAX_AGENTS)));
    }
}
