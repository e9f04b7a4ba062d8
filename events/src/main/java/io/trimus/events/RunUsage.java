package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * What a run's agent CLI said the run used, as it reported it in its own output (Claude Code's result object, Codex's
 * {@code turn.completed} events): tokens, the cost where the CLI states one, the model and the time spent waiting on
 * the provider's API. Every field is optional: a CLI that reports nothing leaves it null, never invented. The figures
 * come from the sandbox's own output, so they are what the agent reported, for showing and summing, not a bill.
 * Values are bounded where they are made: counts are 0 to {@link #MAX_COUNT} (anything else is dropped), the cost 0 to
 * {@link #MAX_COST_USD} with at most 6 decimals, the model at most {@link #MAX_MODEL} characters.
 *
 * @param inputTokens      input tokens not read from the prompt cache (Anthropic counts them so; OpenAI's count
 *                         includes cached input, which the adapter takes out), so the CLIs' figures add up alike
 * @param outputTokens     output tokens (reasoning ones included where the CLI counts them so)
 * @param cacheReadTokens  input tokens read from the provider's prompt cache
 * @param cacheWriteTokens input tokens written to the provider's prompt cache
 * @param reasoningTokens  output tokens spent on reasoning, where the CLI reports them
 * @param costUsd          the cost in US dollars the CLI states (Claude Code's estimate); null when it states none
 * @param model            the model that did most of the work (the one with the most output tokens)
 * @param apiDurationMs    milliseconds spent waiting on the provider's API
 * @param turns            agent turns (model calls that ended a step), where the CLI reports them
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunUsage(Long inputTokens, Long outputTokens, Long cacheReadTokens, Long cacheWriteTokens,
                       Long reasoningTokens, BigDecimal costUsd, String model, Long apiDurationMs, Integer turns) {

    /** The largest count kept: far above any real run, far below what a sum over many runs could overflow. */
    public static final long MAX_COUNT = 1_000_000_000_000L;
    /** The largest cost kept, in US dollars. */
    public static final BigDecimal MAX_COST_USD = new BigDecimal("1000000");
    /** The longest model name kept. */
    public static final int MAX_MODEL = 200;

    public RunUsage {
        inputTokens = count(inputTokens);
        outputTokens = count(outputTokens);
        cacheReadTokens = count(cacheReadTokens);
        cacheWriteTokens = count(cacheWriteTokens);
        reasoningTokens = count(reasoningTokens);
        apiDurationMs = count(apiDurationMs);
        turns = turns == null || turns < 0 ? null : turns;
        costUsd = costUsd == null || costUsd.signum() < 0 || costUsd.compareTo(MAX_COST_USD) > 0
                ? null : costUsd.setScale(Math.min(6, Math.max(0, costUsd.scale())), RoundingMode.HALF_UP);
        model = model == null || model.isBlank() ? null : clean(model.strip());
    }

    /** Whether nothing was reported at all (then a run carries no usage). Not a field of the event. */
    @JsonIgnore
    public boolean isEmpty() {
        return inputTokens == null && outputTokens == null && cacheReadTokens == null && cacheWriteTokens == null
                && reasoningTokens == null && costUsd == null && model == null && apiDurationMs == null
                && turns == null;
    }

    private static Long count(Long value) {
        return value == null || value < 0 || value > MAX_COUNT ? null : value;
    }

    /** At most {@link #MAX_MODEL} characters, control characters dropped (a model name is shown on the dashboard). */
    private static String clean(String model) {
        StringBuilder kept = new StringBuilder(Math.min(model.length(), MAX_MODEL));
        model.codePoints().filter(c -> !Character.isISOControl(c)).limit(MAX_MODEL).forEach(kept::appendCodePoint);
        return kept.isEmpty() ? null : kept.toString();
    }
}
