package io.trimus.adapter.command.output;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.trimus.events.RunUsage;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a captured output tail and the JSON values among them. Jackson's default read constraints bound
 * every line (nesting depth, number and string length); a line that is not exactly one JSON value is skipped, never
 * an error. Numbers that do not fit are dropped, never wrapped.
 */
final class JsonLines {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonLines() {
    }

    /** The lines of {@code text}, split at {@code \n} (a trailing {@code \r} dropped), in order; one linear pass. */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int from = 0;
        while (from <= text.length()) {
            int end = text.indexOf('\n', from);
            if (end < 0) {
                end = text.length();
            }
            int stop = end > from && text.charAt(end - 1) == '\r' ? end - 1 : end;
            lines.add(text.substring(from, stop));
            from = end + 1;
        }
        return lines;
    }

    /**
     * The JSON value of a line that is one object or array (surrounding whitespace allowed), or null: a line that
     * starts otherwise (a warning, the truncation marker, a JSON value cut at its start) is never parsed.
     */
    static JsonNode value(String line) {
        String value = line.strip();
        if (value.isEmpty() || (value.charAt(0) != '{' && value.charAt(0) != '[')) {
            return null;
        }
        try {
            return MAPPER.readTree(value);
        } catch (Exception | StackOverflowError e) {
            return null; // hostile or cut JSON: this line says nothing
        }
    }

    /** The text of a string field, else null. */
    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    /** A whole number in 0..{@link RunUsage#MAX_COUNT}, else null (a fraction, a string, a number that does not fit). */
    static Long count(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            return null;
        }
        long count = value.longValue();
        return count < 0 || count > RunUsage.MAX_COUNT ? null : count;
    }

    /** A count that fits an int, else null. */
    static Integer smallCount(JsonNode node, String field) {
        Long count = count(node, field);
        return count == null || count > Integer.MAX_VALUE ? null : count.intValue();
    }

    /**
     * A finite number as a decimal, else null ({@link RunUsage} bounds it further); a fraction is read as a double,
     * so a hostile exponent never becomes a decimal of huge scale.
     */
    static BigDecimal amount(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || !value.isNumber()) {
            return null;
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToLong() ? BigDecimal.valueOf(value.longValue()) : null;
        }
        double amount = value.doubleValue();
        return Double.isFinite(amount) ? BigDecimal.valueOf(amount) : null;
    }
}
