package io.trimus.admin.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimus.events.AllowlistEntryText;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Allowlist entries as the dashboard reads and writes them beside their text form ({@link AllowlistEntryText}): an
 * entry's parts ({@link Parts}: host, ports, methods, paths), the canonical form two entries are compared in, and the
 * object an admin's request-rule form amounts to. What an entry means stays egress-service's to decide: the form is
 * only bounded here (sizes, the method words, digits for ports), and egress-service checks the rest (a refusal names
 * the field, e.g. {@code entries[2].paths[0]}).
 */
public final class AllowlistEntries {
    /** The methods a rule may list, in the order the form offers them. */
    public static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    /** Most ports, methods or paths one entry may list (egress-service's limit too). */
    public static final int MAX_ITEMS = 32;
    /** Longest host the form takes (a name is at most 253 characters; "*." and a trailing dot on top). */
    public static final int MAX_HOST = 256;
    /** Longest path prefix egress-service takes. */
    public static final int MAX_PATH = 512;
    /** Longest ports field the form takes (32 five-digit ports with separators). */
    public static final int MAX_PORTS_TEXT = 256;
    /** Longest paths field the form takes (32 lines of the longest prefix). */
    public static final int MAX_PATHS_TEXT = MAX_ITEMS * (MAX_PATH + 2);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> KNOWN = Set.of("host", "ports", "methods", "paths");

    private AllowlistEntries() {
    }

    /**
     * An entry in parts: for a string entry its host pattern (with its {@code :port} cut off into {@code ports}) and no
     * rules; for an object its fields. {@code object} tells an object entry; {@code ruled} one with methods or paths.
     */
    public record Parts(String text, boolean object, String host, List<Integer> ports, List<String> methods,
                        List<String> paths) {
        /** Whether the entry has request rules: its host is intercepted and each request checked. */
        public boolean ruled() {
            return !methods.isEmpty() || !paths.isEmpty();
        }
    }

    /**
     * The parts of an entry's text; an object whose fields are not what egress-service lists (a host string, integer
     * ports, string methods and paths) comes back with what could be read, so it is still shown and removable.
     */
    public static Parts parts(String text) {
        String entry = text == null ? "" : text.strip();
        if (!AllowlistEntryText.isObject(entry)) {
            int colon = entry.lastIndexOf(':');
            if (colon > 0 && entry.substring(colon + 1).matches("\\d{1,5}")) {
                return new Parts(entry, false, host(entry.substring(0, colon)),
                        List.of(Integer.parseInt(entry.substring(colon + 1))), List.of(), List.of());
            }
            return new Parts(entry, false, host(entry), List.of(), List.of(), List.of());
        }
        JsonNode node;
        try {
            node = AllowlistEntryText.toJson(entry);
        } catch (IllegalArgumentException e) {
            return new Parts(entry, true, "", List.of(), List.of(), List.of());
        }
        JsonNode host = node.get("host");
        List<Integer> ports = new ArrayList<>();
        for (JsonNode port : items(node, "ports")) {
            if (port.isInt()) {
                ports.add(port.intValue());
            }
        }
        return new Parts(entry, true, host != null && host.isTextual() ? host(host.textValue()) : "",
                List.copyOf(new TreeSet<>(ports)), texts(node, "methods"), texts(node, "paths"));
    }

    /**
     * The form two entries are compared in, as egress-service normalises them: a string entry in lower case without
     * a trailing dot; an object as compact JSON with its fields in egress-service's order (host, ports, methods,
     * paths, then any other by name), its host as a string entry's, its lists sorted and without duplicates. So
     * {@code {"paths":["/b","/a"],"host":"API.github.com."}} and {@code {"host":"api.github.com","paths":["/a","/b"]}}
     * are one entry. Text that is no JSON object compares as it is.
     */
    public static String canonical(String text) {
        String entry = text == null ? "" : text.strip();
        if (!AllowlistEntryText.isObject(entry)) {
            return host(entry);
        }
        JsonNode node;
        try {
            node = AllowlistEntryText.toJson(entry);
        } catch (IllegalArgumentException e) {
            return entry;
        }
        ObjectNode out = JSON.createObjectNode();
        JsonNode host = node.get("host");
        if (host != null) {
            out.set("host", host.isTextual() ? JSON.getNodeFactory().textNode(host(host.textValue())) : host);
        }
        for (String list : List.of("ports", "methods", "paths")) {
            JsonNode value = node.get(list);
            if (value == null) {
                continue;
            }
            if (!value.isArray()) {
                out.set(list, value);
                continue;
            }
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (JsonNode item : value) {
                // numbers sort as numbers (9 before 10), everything else by its text
                String key = item.isInt() ? String.format(Locale.ROOT, "%06d", item.intValue()) : item.toString();
                sorted.put(key, item);
            }
            if (!sorted.isEmpty()) {
                ArrayNode array = out.putArray(list);
                sorted.values().forEach(array::add);
            }
        }
        TreeMap<String, JsonNode> others = new TreeMap<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KNOWN.contains(name)) {
                others.put(name, node.get(name));
            }
        }
        others.forEach(out::set);
        return out.toString();
    }

    /** Whether two entries' texts are one entry ({@link #canonical}). */
    public static boolean same(String a, String b) {
        return canonical(a).equals(canonical(b));
    }

    /**
     * The object entry an admin's request-rule form amounts to, as text: {@code host} as typed, {@code ports} the
     * numbers in the text (separated by commas or spaces), {@code methods} the boxes ticked, {@code paths} one prefix
     * per non-blank line, in the order typed (so egress-service's {@code paths[0]} is the first line). An empty list
     * field is left out (it allows any). A {@link BackendException} of kind REFUSED naming the form's field when the
     * host is missing, a field is too long or holds too many items, a port is no number or a method is no known word;
     * nothing is sent then.
     */
    public static String fromForm(String host, String ports, List<String> methods, String paths) {
        String h = host == null ? "" : host.strip();
        if (h.isEmpty()) {
            throw refused("host", "Type the host the rules are for, e.g. api.github.com.");
        }
        if (h.length() > MAX_HOST) {
            throw refused("host", "The host is longer than " + MAX_HOST + " characters.");
        }
        ObjectNode entry = JSON.createObjectNode();
        entry.put("host", h);
        String p = ports == null ? "" : ports.strip();
        if (p.length() > MAX_PORTS_TEXT) {
            throw refused("ports", "The ports are longer than " + MAX_PORTS_TEXT + " characters.");
        }
        if (!p.isEmpty()) {
            String[] tokens = p.split("[,\\s]+");
            if (tokens.length > MAX_ITEMS) {
                throw refused("ports", "List at most " + MAX_ITEMS + " ports, not " + tokens.length + ".");
            }
            ArrayNode list = entry.putArray("ports");
            for (String token : tokens) {
                if (!token.matches("\\d{1,5}")) {
                    throw refused("ports", "Ports are numbers separated by commas, e.g. 443, 8443; \""
                            + shorten(token) + "\" is none.");
                }
                list.add(Integer.parseInt(token));
            }
        }
        if (methods != null && !methods.isEmpty()) {
            if (methods.size() > METHODS.size()) {
                throw refused("methods", "Tick at most the " + METHODS.size() + " methods offered.");
            }
            ArrayNode list = entry.putArray("methods");
            for (String method : new TreeSet<>(methods)) {
                if (!METHODS.contains(method)) {
                    throw refused("methods", "A method is one of " + String.join(", ", METHODS) + ".");
                }
                list.add(method);
            }
        }
        String text = paths == null ? "" : paths;
        if (text.length() > MAX_PATHS_TEXT) {
            throw refused("paths", "The paths are longer than " + MAX_PATHS_TEXT + " characters.");
        }
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.size() > MAX_ITEMS) {
            throw refused("paths", "List at most " + MAX_ITEMS + " path prefixes, not " + lines.size() + ".");
        }
        if (!lines.isEmpty()) {
            ArrayNode list = entry.putArray("paths");
            for (String line : lines) {
                if (line.length() > MAX_PATH) {
                    throw refused("paths", "A path prefix is at most " + MAX_PATH + " characters.");
                }
                list.add(line);
            }
        }
        return entry.toString();
    }

    /**
     * The object entry of {@code parts} with {@code method} and {@code path} added to its lists (a null one: that list
     * unchanged), as text.
     */
    static String withRequest(Parts parts, String method, String path) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("host", parts.host());
        if (!parts.ports().isEmpty()) {
            ArrayNode list = entry.putArray("ports");
            parts.ports().forEach(list::add);
        }
        List<String> methods = add(parts.methods(), method);
        if (!methods.isEmpty()) {
            ArrayNode list = entry.putArray("methods");
            methods.forEach(list::add);
        }
        List<String> paths = add(parts.paths(), path);
        if (!paths.isEmpty()) {
            ArrayNode list = entry.putArray("paths");
            paths.forEach(list::add);
        }
        return entry.toString();
    }

    /** {@code list} with {@code item} (a null item: unchanged). */
    private static List<String> add(List<String> list, String item) {
        if (item == null || list.contains(item)) {
            return list;
        }
        List<String> more = new ArrayList<>(list);
        more.add(item);
        return more;
    }

    private static String host(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    private static List<JsonNode> items(JsonNode node, String field) {
        JsonNode list = node.get(field);
        List<JsonNode> items = new ArrayList<>();
        if (list != null && list.isArray()) {
            list.forEach(items::add);
        }
        return items;
    }

    private static List<String> texts(JsonNode node, String field) {
        return items(node, field).stream().filter(JsonNode::isTextual).map(JsonNode::textValue).distinct().toList();
    }

    private static String shorten(String text) {
        return text.length() <= 20 ? text : text.substring(0, 20) + "…";
    }

    private static BackendException refused(String field, String sentence) {
        return new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED, sentence, field, null);
    }
}
