package io.trimus.run.repository.run;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * What the runs of one agent (or of every agent asked about, when {@code companyId} and {@code agentId} are null)
 * reported they used over a period, summed by PostgreSQL. {@code runs} counts the runs that finished in the period,
 * {@code runsWithUsage} those that reported anything; a sum is null when no run reported that figure, never zero.
 *
 * @param companyId        the agent's company; null in totals
 * @param agentId          the agent; null in totals
 * @param runs             runs that finished in the period
 * @param runsWithUsage    of those, the runs whose CLI reported any usage
 * @param inputTokens      summed input tokens
 * @param outputTokens     summed output tokens
 * @param cacheReadTokens  summed prompt-cache reads
 * @param cacheWriteTokens summed prompt-cache writes
 * @param reasoningTokens  summed reasoning tokens
 * @param costUsd          summed cost in US dollars, of the runs that stated one
 */
public record UsageSums(UUID companyId, UUID agentId, long runs, long runsWithUsage, Long inputTokens,
                        Long outputTokens, Long cacheReadTokens, Long cacheWriteTokens, Long reasoningTokens,
                        BigDecimal costUsd) {

    /** The sums of one row of {@link RunRepository#usageByAgent}'s select, in its column order from {@code at}. */
    static UsageSums of(UUID companyId, UUID agentId, Object[] row, int at) {
        return new UsageSums(companyId, agentId, ((Number) row[at]).longValue(), ((Number) row[at + 1]).longValue(),
                (Long) row[at + 2], (Long) row[at + 3], (Long) row[at + 4], (Long) row[at + 5], (Long) row[at + 6],
                (BigDecimal) row[at + 7]);
    }
}
