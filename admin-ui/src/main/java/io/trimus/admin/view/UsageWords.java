package io.trimus.admin.view;

import io.trimus.admin.client.RunServiceApi.AgentUsage;
import io.trimus.admin.client.RunServiceApi.Usage;
import io.trimus.admin.view.Views.Flag;
import io.trimus.admin.view.Views.UsageRow;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What runs reported they used, in the words the pages show: "1,200" tokens, "$0.0123", "2.3 s". A figure the CLI did
 * not report is left out (a run's facts) or shown as "—" (a summary's cells), never as 0.
 */
public final class UsageWords {
    private static final String NONE = "—";

    private UsageWords() {
    }

    /** A run's usage as facts, only those its CLI reported; empty when it reported nothing. */
    public static List<Flag> facts(Usage usage) {
        List<Flag> facts = new ArrayList<>();
        if (usage == null) {
            return facts;
        }
        add(facts, "Tokens in", count(usage.inputTokens()), usage.inputTokens() != null);
        add(facts, "Tokens out", count(usage.outputTokens()), usage.outputTokens() != null);
        add(facts, "Cache read / write", count(usage.cacheReadTokens()) + " / " + count(usage.cacheWriteTokens()),
                usage.cacheReadTokens() != null || usage.cacheWriteTokens() != null);
        add(facts, "Reasoning tokens", count(usage.reasoningTokens()), usage.reasoningTokens() != null);
        add(facts, "Cost", usd(usage.costUsd()) + " (as the CLI stated it)", usage.costUsd() != null);
        add(facts, "Model", usage.model(), usage.model() != null);
        add(facts, "API duration", duration(usage.apiDurationMs()), usage.apiDurationMs() != null);
        add(facts, "Turns", usage.turns() == null ? NONE : count(usage.turns().longValue()), usage.turns() != null);
        return facts;
    }

    /** One agent's (or the totals') line of a usage summary; {@code agent} is how the page names it. */
    public static UsageRow row(String agentId, String agent, AgentUsage u) {
        return new UsageRow(agentId, agent, count(u.runs()), count(u.runsWithUsage()), count(u.inputTokens()),
                count(u.outputTokens()), count(u.cacheReadTokens()) + " / " + count(u.cacheWriteTokens()),
                usd(u.costUsd()));
    }

    /** A count with thousands separators, "—" when not reported. */
    static String count(Long value) {
        return value == null ? NONE : String.format(Locale.ROOT, "%,d", value);
    }

    /** US dollars as stated, at most 6 decimals and at least 2: "$0.0123", "$3.00"; "—" when not stated. */
    static String usd(BigDecimal value) {
        if (value == null) {
            return NONE;
        }
        BigDecimal shown = value.setScale(Math.min(6, Math.max(2, value.stripTrailingZeros().scale())),
                RoundingMode.HALF_UP);
        return "$" + shown.toPlainString();
    }

    /** Milliseconds in the largest unit that keeps them readable: "850 ms", "2.3 s", "4 min 5 s". */
    static String duration(Long ms) {
        if (ms == null) {
            return NONE;
        }
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long seconds = ms / 1000;
        return seconds / 60 + " min " + seconds % 60 + " s";
    }

    private static void add(List<Flag> facts, String name, String value, boolean reported) {
        if (reported) {
            facts.add(new Flag(name, value));
        }
    }
}
