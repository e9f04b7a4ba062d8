package io.trimus.adapter.command.output;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.RunUsage;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Claude Code's {@code -p --output-format json} result: one JSON object on a line, {@code "type":"result"}, with the
 * final text in {@code result} on success, and {@code usage}, {@code total_cost_usd}, {@code modelUsage},
 * {@code duration_api_ms} and {@code num_turns} on every result, errors included. With {@code --verbose} Claude Code
 * prints a JSON array of its messages instead; the last result in it counts. The last result line of the tail wins.
 */
final class ClaudeResult {

    private ClaudeResult() {
    }

    /** The answer and usage of the last result in {@code tail}; {@link CliResult#NONE} when there is none. */
    static CliResult read(String tail) {
        List<String> lines = JsonLines.lines(tail);
        for (int i = lines.size() - 1; i >= 0; i--) {
            JsonNode result = result(JsonLines.value(lines.get(i)));
            if (result != null) {
                return new CliResult(answer(result), usage(result));
            }
        }
        return CliResult.NONE;
    }

    /** The result object of a line's value: the object itself, or the last result of an array. */
    private static JsonNode result(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isArray()) {
            for (int i = value.size() - 1; i >= 0; i--) {
                if (isResult(value.get(i))) {
                    return value.get(i);
                }
            }
            return null;
        }
        return isResult(value) ? value : null;
    }

    private static boolean isResult(JsonNode node) {
        return node.isObject() && "result".equals(JsonLines.text(node, "type"));
    }

    /** The final text of a successful result; none for an error one (its output stays what the CLI printed). */
    private static String answer(JsonNode result) {
        JsonNode isError = result.get("is_error");
        String subtype = JsonLines.text(result, "subtype");
        boolean error = isError != null && (!isError.isBoolean() || isError.booleanValue());
        if (error || (subtype != null && !subtype.equals("success"))) {
            return null;
        }
        return JsonLines.text(result, "result");
    }

    private static RunUsage usage(JsonNode result) {
        JsonNode usage = result.get("usage");
        return new RunUsage(JsonLines.count(usage, "input_tokens"), JsonLines.count(usage, "output_tokens"),
                JsonLines.count(usage, "cache_read_input_tokens"),
                JsonLines.count(usage, "cache_creation_input_tokens"), null,
                JsonLines.amount(result, "total_cost_usd"), model(result.get("modelUsage")),
                JsonLines.count(result, "duration_api_ms"), JsonLines.smallCount(result, "num_turns"));
    }

    /** The model with the most output tokens in {@code modelUsage} (the first of equals); null when none says. */
    private static String model(JsonNode modelUsage) {
        if (modelUsage == null || !modelUsage.isObject()) {
            return null;
        }
        String model = null;
        long most = -1;
        for (Iterator<Map.Entry<String, JsonNode>> it = modelUsage.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            Long output = JsonLines.count(entry.getValue(), "outputTokens");
            long tokens = output == null ? 0 : output;
            if (tokens > most) {
                most = tokens;
                model = entry.getKey();
            }
        }
        return model;
    }
}
