package io.trimus.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An egress allowlist entry as readers outside egress-service hold it: one string. egress-service lists an entry as a
 * JSON string ({@code "api.github.com"}, {@code "git.example.com:22"}) or, when it has request rules, as a JSON object
 * ({@code {"host": "api.github.com", "ports": [443], "methods": ["GET"], "paths": ["/repos/acme/"]}}); the object's
 * text form here is its compact JSON, which starts with <code>{</code> as no host pattern does. What an entry means is
 * egress-service's to decide; this class only moves entries between the two forms and reads an object's host and
 * ports.
 */
public final class AllowlistEntryText {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final String NO_OBJECT = "starts with { but is no JSON object such as"
            + " {\"host\": \"api.github.com\", \"methods\": [\"GET\"]}";

    private AllowlistEntryText() {
    }

    /** The host and ports of an object entry; {@code ports} empty when it names none (the proxy's default ports). */
    public record HostPorts(String host, List<Integer> ports) {
    }

    /** An entry as egress-service lists it, as text: a string as it is, an object as its compact JSON. */
    public static String of(JsonNode entry) {
        if (entry == null || entry.isNull()) {
            return "";
        }
        return entry.isTextual() ? entry.textValue() : entry.toString();
    }

    /** Whether {@code text} is an object entry's text form. */
    public static boolean isObject(String text) {
        return text != null && text.strip().startsWith("{");
    }

    /**
     * An entry's text as egress-service takes it: an object's JSON text as that object, anything else as a string.
     *
     * @throws IllegalArgumentException when {@code text} starts with <code>{</code> but is no JSON object; the message
     *                                  says so as the end of a sentence about the entry ("starts with { but is no JSON
     *                                  object such as …: what is wrong")
     */
    public static JsonNode toJson(String text) {
        if (!isObject(text)) {
            return TextNode.valueOf(text);
        }
        JsonNode node;
        try {
            node = JSON.readTree(text.strip());
        } catch (JsonProcessingException e) {
            String problem = e.getOriginalMessage() == null ? "malformed" : e.getOriginalMessage();
            throw new IllegalArgumentException(NO_OBJECT + ": "
                    + (problem.length() <= 200 ? problem : problem.substring(0, 200) + "…"));
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(NO_OBJECT);
        }
        return node;
    }

    /**
     * The host (lower case, without a trailing dot) and ports of an object entry's text; empty when {@code text} is
     * no object entry or its {@code host} or {@code ports} are not what egress-service lists (a string; integers).
     */
    public static Optional<HostPorts> hostPorts(String text) {
        if (!isObject(text)) {
            return Optional.empty();
        }
        JsonNode node;
        try {
            node = toJson(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        JsonNode host = node.get("host");
        JsonNode ports = node.get("ports");
        if (host == null || !host.isTextual() || ports != null && !ports.isArray()) {
            return Optional.empty();
        }
        List<Integer> list = new ArrayList<>();
        if (ports != null) {
            for (JsonNode port : ports) {
                if (!port.isInt()) {
                    return Optional.empty();
                }
                list.add(port.intValue());
            }
        }
        String name = host.textValue().strip().toLowerCase(Locale.ROOT);
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return Optional.of(new HostPorts(name, List.copyOf(list)));
    }
}
