package io.trimus.adapter.command.output;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.RunUsage;

/**
 * Codex's {@code exec --json} event stream, one JSON object a line: the answer is the text of the last
 * {@code item.completed} whose item is an {@code agent_message}, unless a {@code turn.failed} or {@code error} came
 * after it (then the output stays what Codex printed, error included); the usage is the sum over every
 * {@code turn.completed}, and the turns their count. Codex states no cost and names no model in its events: the model
 * is the one the agent configured ({@code --model}), if any. Lines that are not JSON (its stderr) are skipped.
 */
final class CodexEvents {

    private CodexEvents() {
    }

    /** The answer and usage in {@code tail}; {@link CliResult#NONE} when it holds neither. */
    static CliResult read(String tail, String model) {
        String answer = null;
        Sum input = new Sum();
        Sum cached = new Sum();
        Sum cacheWrite = new Sum();
        Sum output = new Sum();
        Sum reasoning = new Sum();
        int turns = 0;
        for (String line : JsonLines.lines(tail)) {
            JsonNode event = JsonLines.value(line);
            String type = event == null || !event.isObject() ? null : JsonLines.text(event, "type");
            if (type == null) {
                continue;
            }
            switch (type) {
                case "item.completed" -> {
                    JsonNode item = event.get("item");
                    String text = JsonLines.text(item, "text");
                    if ("agent_message".equals(JsonLines.text(item, "type")) && text != null) {
                        answer = text;
                    }
                }
                case "turn.failed", "error" -> answer = null;
                case "turn.completed" -> {
                    JsonNode usage = event.get("usage");
                    input.add(usage, "input_tokens");
                    cached.add(usage, "cached_input_tokens");
                    cacheWrite.add(usage, "cache_write_input_tokens");
                    output.add(usage, "output_tokens");
                    reasoning.add(usage, "reasoning_output_tokens");
                    turns++;
                }
                default -> {
                    // thread.started, turn.started, item.started, item.updated, other items: nothing to read
                }
            }
        }
        if (turns == 0) {
            return new CliResult(answer, null);
        }
        // OpenAI counts cached input inside input_tokens, Anthropic apart: RunUsage's input_tokens are those not read
        // from the cache, so both CLIs' figures add up the same way
        Long uncached = input.total() == null || cached.total() == null || input.total() > RunUsage.MAX_COUNT
                ? input.total() : Long.valueOf(Math.max(0, input.total() - cached.total()));
        return new CliResult(answer, new RunUsage(uncached, output.total(), cached.total(), cacheWrite.total(),
                reasoning.total(), null, model, null, turns));
    }

    /**
     * A field summed over the turns that report it: null when none does, or when one reports something that is not a
     * count; past {@link RunUsage#MAX_COUNT} it stays just above it, which {@link RunUsage} drops, so it never
     * overflows.
     */
    private static final class Sum {
        private long total;
        private boolean seen;
        private boolean broken;

        void add(JsonNode usage, String field) {
            JsonNode value = usage == null ? null : usage.get(field);
            if (value == null || value.isNull()) {
                return;
            }
            Long count = JsonLines.count(usage, field);
            if (count == null) {
                broken = true;
                return;
            }
            seen = true;
            total = Math.min(total + count, RunUsage.MAX_COUNT + 1);
        }

        Long total() {
            return seen && !broken ? total : null;
        }
    }
}
