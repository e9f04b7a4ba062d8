package io.trimus.egress.policy.document;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimus.egress.policy.EgressMode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * What replacing a company's policy by a document changes: the mode before and after, the entries its list gains and
 * loses, and each agent whose own list is created, replaced or dropped (an agent whose list stays as it is is not
 * named). Empty when the document is the policy as stored: then nothing is written.
 */
public record PolicyDiff(EgressMode modeBefore, EgressMode modeAfter, ListChange entries, List<AgentChange> agents) {

    /** Entries a list gains and loses, each in its stored (normalised) form. */
    public record ListChange(List<String> added, List<String> removed) {
        static ListChange between(List<String> before, List<String> after) {
            Set<String> was = new HashSet<>(before);
            Set<String> will = new HashSet<>(after);
            return new ListChange(after.stream().filter(e -> !was.contains(e)).toList(),
                    before.stream().filter(e -> !will.contains(e)).toList());
        }

        /** Whether the list stays as it is. */
        public boolean isEmpty() {
            return added.isEmpty() && removed.isEmpty();
        }
    }

    /** How one agent's own list changes. */
    public enum Change {
        /** The agent gets a list of its own. */
        CREATED,
        /** The agent keeps a list of its own with other entries. */
        REPLACED,
        /** The agent's own list goes: its company's list applies to it alone. */
        DROPPED
    }

    /** One agent whose own list changes: how, and the entries it gains and loses. */
    public record AgentChange(UUID agentId, Change change, ListChange entries) {
    }

    /** What making {@code after} the policy changes when {@code before} is stored. */
    public static PolicyDiff between(PolicyDocument before, PolicyDocument after) {
        List<AgentChange> agents = new ArrayList<>();
        TreeSet<UUID> named = new TreeSet<>(before.agents().keySet());
        named.addAll(after.agents().keySet());
        for (UUID agent : named) {
            List<String> was = before.agents().get(agent);
            List<String> will = after.agents().get(agent);
            if (was == null) {
                agents.add(new AgentChange(agent, Change.CREATED, ListChange.between(List.of(), will)));
            } else if (will == null) {
                agents.add(new AgentChange(agent, Change.DROPPED, ListChange.between(was, List.of())));
            } else if (!new TreeSet<>(was).equals(new TreeSet<>(will))) {
                agents.add(new AgentChange(agent, Change.REPLACED, ListChange.between(was, will)));
            }
        }
        return new PolicyDiff(before.mode(), after.mode(), ListChange.between(before.entries(), after.entries()),
                List.copyOf(agents));
    }

    /** Whether the document is the policy as stored. */
    public boolean isEmpty() {
        return Objects.equals(modeBefore, modeAfter) && entries.isEmpty() && agents.isEmpty();
    }

    /** Whether the mode changes. */
    public boolean modeChanges() {
        return modeBefore != modeAfter;
    }

    /**
     * The diff as the API answers it: {@code dry_run}, {@code applied} (whether this request wrote it), {@code
     * changed}, {@code mode} {before, after}, {@code entries} {added, removed} and {@code agents}: one object per agent
     * whose own list changes ({@code agent_id}, {@code change}: created, replaced or dropped, added, removed).
     */
    public ObjectNode view(boolean dryRun, boolean applied) {
        ObjectNode view = JsonNodeFactory.instance.objectNode();
        view.put("dry_run", dryRun);
        view.put("applied", applied);
        view.put("changed", !isEmpty());
        ObjectNode mode = view.putObject("mode");
        mode.put("before", PolicyDocument.word(modeBefore));
        mode.put("after", PolicyDocument.word(modeAfter));
        put(view.putObject("entries"), entries);
        var list = view.putArray("agents");
        for (AgentChange agent : agents) {
            ObjectNode item = list.addObject();
            item.put("agent_id", agent.agentId().toString());
            item.put("change", agent.change().name().toLowerCase(java.util.Locale.ROOT));
            put(item, agent.entries());
        }
        return view;
    }

    /** The audit details of one list's change, as the allowlist services record them. */
    static Map<String, Object> details(ListChange change, int entries) {
        Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("added", change.added());
        details.put("removed", change.removed());
        details.put("entries", entries);
        return details;
    }

    private static void put(ObjectNode into, ListChange change) {
        into.set("added", PolicyDocument.view(change.added()));
        into.set("removed", PolicyDocument.view(change.removed()));
    }
}
