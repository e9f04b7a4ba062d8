package io.trimus.egress.allowlist;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimus.commons.problem.ProblemException;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An allowlist entry written as an object: {@code {"host": "api.github.com", "ports": [443], "methods": ["GET"],
 * "paths": ["/repos/acme/"]}}. {@code host} is a host pattern as in a string entry, without a port; {@code ports}
 * (default: the proxy's default ports, as a port-less string entry), {@code methods} (from {@link #METHODS}, upper
 * case) and {@code paths} (prefixes of the normalised request path, {@link RequestPaths}) are optional, each at most
 * {@value #MAX_ITEMS} items. With {@code methods} or {@code paths}, the entry has request rules: the proxy terminates
 * TLS to such a host and lets a request through only when its method is listed (or none are) and its normalised path
 * lies under a listed prefix (or none are listed). Stored as its canonical JSON text, which starts with <code>{</code>:
 * no string entry does.
 *
 * @param host    normalised host pattern
 * @param ports   the ports it opens; empty for the proxy's default ports
 * @param methods the methods it allows; empty for any
 * @param paths   the path prefixes it allows; empty for any
 */
public record RuledEntry(String host, SortedSet<Integer> ports, SortedSet<String> methods, SortedSet<String> paths) {
    /** The methods a rule may list. */
    public static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    /** Most ports, methods or paths one entry may list. */
    public static final int MAX_ITEMS = 32;
    private static final Set<String> FIELDS = Set.of("host", "ports", "methods", "paths");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether the entry restricts requests (lists methods or paths): its host is intercepted. */
    public boolean hasRequestRules() {
        return !methods.isEmpty() || !paths.isEmpty();
    }

    /** Whether the host pattern matches the normalised {@code name}, as a string entry's does. */
    public boolean matchesName(String name) {
        return new AllowlistRule(host, AllowlistRule.ANY_DEFAULT_PORT).matches(name);
    }

    /** Whether the entry opens {@code port}: a port it lists, or one of {@code defaultPorts} when it lists none. */
    public boolean opens(int port, Set<Integer> defaultPorts) {
        return ports.isEmpty() ? defaultPorts.contains(port) : ports.contains(port);
    }

    /** Whether a request with {@code method} and the normal-form {@code path} (null: refused path) passes. */
    public boolean allowsRequest(String method, String path) {
        if (!methods.isEmpty() && !methods.contains(method)) {
            return false;
        }
        if (paths.isEmpty()) {
            return true;
        }
        for (String prefix : paths) {
            if (RequestPaths.under(prefix, path)) {
                return true;
            }
        }
        return false;
    }

    /** The canonical JSON text: fields in a fixed order, lists sorted, empty lists left out. */
    public String text() {
        return toJson().toString();
    }

    /** The entry as the API lists it. */
    public ObjectNode toJson() {
        ObjectNode node = JSON.createObjectNode();
        node.put("host", host);
        if (!ports.isEmpty()) {
            ArrayNode list = node.putArray("ports");
            ports.forEach(list::add);
        }
        if (!methods.isEmpty()) {
            ArrayNode list = node.putArray("methods");
            methods.forEach(list::add);
        }
        if (!paths.isEmpty()) {
            ArrayNode list = node.putArray("paths");
            paths.forEach(list::add);
        }
        return node;
    }

    /** Whether a stored entry is an object entry (its canonical JSON) rather than a string entry. */
    public static boolean isStoredObject(String stored) {
        return stored.startsWith("{");
    }

    /** A stored entry's canonical JSON read back (it was checked when stored). */
    public static RuledEntry ofStored(String stored) {
        try {
            return parse("entry", JSON.readTree(stored));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored allowlist entry is not JSON: " + stored, e);
        }
    }

    /** A stored entry as the API lists it: a string, or an object. */
    public static JsonNode view(String stored) {
        return isStoredObject(stored) ? ofStored(stored).toJson() : JSON.getNodeFactory().textNode(stored);
    }

    /** An object entry as sent, checked and normalised; a 400 problem naming the field that is wrong otherwise. */
    public static RuledEntry parse(String field, JsonNode node) {
        if (node == null || !node.isObject()) {
            throw ProblemException.invalid(field, "must be a string or an object {\"host\": …}");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw ProblemException.invalid(field + "." + shorten(name), "is not a field of an entry; an entry"
                        + " object has host, and optionally ports, methods and paths");
            }
        }
        JsonNode hostNode = node.get("host");
        if (hostNode == null || !hostNode.isTextual()) {
            throw ProblemException.invalid(field + ".host", "is required: a host name (api.github.com) or a"
                    + " wildcard (*.example.com), without a port");
        }
        AllowlistRule rule = AllowlistRule.normalise(field + ".host", hostNode.textValue());
        if (rule.namesPort()) {
            throw ProblemException.invalidValue(field + ".host", hostNode.textValue(),
                    "must not name a port; list it in ports ([" + rule.port() + "])");
        }
        SortedSet<Integer> ports = new TreeSet<>();
        for (Map.Entry<Integer, JsonNode> item : items(field, node, "ports")) {
            String at = field + ".ports[" + item.getKey() + "]";
            JsonNode port = item.getValue();
            if (!port.isIntegralNumber() || !port.canConvertToInt() || port.intValue() < 1
                    || port.intValue() > AllowlistRule.MAX_PORT) {
                throw ProblemException.invalid(at, "must be a port number from 1 to " + AllowlistRule.MAX_PORT);
            }
            ports.add(port.intValue());
        }
        SortedSet<String> methods = new TreeSet<>();
        for (Map.Entry<Integer, JsonNode> item : items(field, node, "methods")) {
            String at = field + ".methods[" + item.getKey() + "]";
            JsonNode method = item.getValue();
            if (!method.isTextual() || !METHODS.contains(method.textValue())) {
                throw ProblemException.invalid(at, "must be one of " + new TreeSet<>(METHODS)
                        + ", in upper case");
            }
            methods.add(method.textValue());
        }
        SortedSet<String> paths = new TreeSet<>();
        for (Map.Entry<Integer, JsonNode> item : items(field, node, "paths")) {
            String at = field + ".paths[" + item.getKey() + "]";
            JsonNode path = item.getValue();
            if (!path.isTextual()) {
                throw ProblemException.invalid(at, "must be a path prefix string starting with / (/repos/acme/)");
            }
            paths.add(RequestPaths.prefix(at, path.textValue()));
        }
        return new RuledEntry(rule.host(), ports, methods, paths);
    }

    /** The items of an optional list field with their indexes; a problem when it is not a list of 1 to 32 items. */
    private static List<Map.Entry<Integer, JsonNode>> items(String field, JsonNode node, String name) {
        JsonNode list = node.get(name);
        if (list == null) {
            return List.of();
        }
        if (!list.isArray() || list.isEmpty()) {
            throw ProblemException.invalid(field + "." + name, "must be a non-empty list; leave the field out to"
                    + " allow any");
        }
        if (list.size() > MAX_ITEMS) {
            throw ProblemException.invalid(field + "." + name, "must hold at most " + MAX_ITEMS + " items, not "
                    + list.size());
        }
        java.util.ArrayList<Map.Entry<Integer, JsonNode>> items = new java.util.ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            items.add(Map.entry(i, list.get(i)));
        }
        return items;
    }

    private static String shorten(String name) {
        return name.length() <= 40 ? name : name.substring(0, 40) + "…";
    }
}
