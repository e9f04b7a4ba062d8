package io.trimus.egress.policy.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.allowlist.AllowlistService;
import io.trimus.egress.allowlist.RuledEntry;
import io.trimus.egress.policy.EgressMode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A company's whole egress policy: its mode, its allowlist's normalised entries, and the normalised entries of every
 * agent with a list of its own (an agent absent has none: its company's list applies to it alone). As a document:
 * <pre>{"mode": "enforce", "entries": ["api.github.com"], "agents": {"&lt;agent id&gt;": {"entries": […]}}}</pre>
 * Entries take every form the allowlist APIs take and are checked by the same rules
 * ({@link AllowlistService#normaliseAll}); a problem names the field path, e.g. {@code agents[<id>].entries[2].paths[0]}.
 */
public record PolicyDocument(EgressMode mode, List<String> entries, SortedMap<UUID, List<String>> agents) {
    /** The fields of a document, all required. */
    public static final Set<String> FIELDS = Set.of("mode", "entries", "agents");
    private static final String SHAPE = "{\"mode\": \"enforce\", \"entries\": [\"example.com\"], \"agents\": {}}";
    private static final int MAX_SHOWN_NAME = 64;

    public PolicyDocument {
        entries = List.copyOf(entries);
        TreeMap<UUID, List<String>> copy = new TreeMap<>();
        agents.forEach((agent, list) -> copy.put(agent, List.copyOf(list)));
        agents = Collections.unmodifiableSortedMap(copy);
    }

    /** The document in {@code tree}, checked and normalised; a 400 problem naming the first field at fault. */
    public static PolicyDocument parse(JsonNode tree, int maxAgents) {
        if (tree == null || !tree.isObject()) {
            throw ProblemException.invalid("body", "must be a policy document: " + SHAPE);
        }
        for (Iterator<String> names = tree.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw ProblemException.invalid(shorten(name), "is not a field of a policy document; it has mode,"
                        + " entries and agents");
            }
        }
        return new PolicyDocument(mode(tree.get("mode")), entries("", tree.get("entries")),
                agents(tree.get("agents"), maxAgents));
    }

    /** The document as GET shows it: entries each a string or an object, agents sorted by id. */
    public ObjectNode view() {
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        document.put("mode", word(mode));
        document.set("entries", view(entries));
        ObjectNode byAgent = document.putObject("agents");
        agents.forEach((agent, list) -> byAgent.putObject(agent.toString()).set("entries", view(list)));
        return document;
    }

    /** How {@code mode} is written in a document and a diff. */
    public static String word(EgressMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    static ArrayNode view(List<String> stored) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        stored.forEach(entry -> list.add(RuledEntry.view(entry)));
        return list;
    }

    private static EgressMode mode(JsonNode mode) {
        if (mode == null || mode.isNull()) {
            throw ProblemException.invalid("mode", "is required: enforce or report");
        }
        if (!mode.isTextual()) {
            throw ProblemException.invalid("mode", "must be a string: enforce or report");
        }
        for (EgressMode known : EgressMode.values()) {
            if (word(known).equals(mode.textValue())) {
                return known;
            }
        }
        throw ProblemException.invalidValue("mode", mode.textValue(), "is not a mode: enforce or report");
    }

    private static SortedMap<UUID, List<String>> agents(JsonNode agents, int maxAgents) {
        if (agents == null || agents.isNull()) {
            throw ProblemException.invalid("agents", "is required: an object of agent id to {\"entries\": […]},"
                    + " {} when no agent has a list of its own");
        }
        if (!agents.isObject()) {
            throw ProblemException.invalid("agents", "must be an object of agent id to {\"entries\": […]}");
        }
        if (agents.size() > maxAgents) {
            throw ProblemException.invalid("agents", "must hold at most " + maxAgents + " agents, not "
                    + agents.size() + " (TRIMUS_EGRESS_POLICY_DOCUMENT_MAX_AGENTS)");
        }
        SortedMap<UUID, List<String>> lists = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = agents.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            UUID agent = Ids.of(field.getKey()).orElseThrow(() -> ProblemException.invalidValue("agents",
                    field.getKey(), "is not an agent id: each key of agents is a UUID"));
            String at = "agents[" + agent + "]";
            if (lists.containsKey(agent)) {
                throw ProblemException.invalid(at, "appears twice");
            }
            JsonNode list = field.getValue();
            if (list == null || !list.isObject()) {
                throw ProblemException.invalid(at, "must be an object {\"entries\": […]}");
            }
            for (Iterator<String> names = list.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!name.equals("entries")) {
                    throw ProblemException.invalid(at + "." + shorten(name), "is not a field of an agent's list;"
                            + " it has entries");
                }
            }
            lists.put(agent, entries(at + ".", list.get("entries")));
        }
        return lists;
    }

    /** A list's entries through the allowlist's own rules, the problem's field put under {@code prefix}. */
    private static List<String> entries(String prefix, JsonNode entries) {
        if (entries != null && !entries.isNull() && !entries.isArray()) {
            throw ProblemException.invalid(prefix + "entries", "must be a list of entries");
        }
        List<JsonNode> items = new ArrayList<>();
        if (entries != null && !entries.isNull()) {
            entries.forEach(items::add);
        }
        try {
            return AllowlistService.normaliseAll(entries == null || entries.isNull() ? null : items);
        } catch (ProblemException e) {
            if (prefix.isEmpty() || e.field() == null || !e.getMessage().startsWith(e.field())) {
                throw e;
            }
            throw new ProblemException(e.status(), e.title(), prefix + e.getMessage(), prefix + e.field(),
                    e.value());
        }
    }

    private static String shorten(String name) {
        return name.length() > MAX_SHOWN_NAME ? name.substring(0, MAX_SHOWN_NAME) + "…" : name;
    }
}
