package io.trimus.egress.allowlist;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every agent's own allowlist in memory (issue 31), next to the companies' in {@link AllowlistCache}: an agent with a
 * list of its own reaches only what both its list and its company's allow. Each question here answers only the
 * agent's half: {@code true} when the agent has no list of its own (its company's list alone decides), so callers
 * combine it with the company's answer and can tell which of the two refused. A list is compiled and matched exactly
 * as a company's (one {@link AllowlistCache} per company, keyed by agent), so it takes every entry form the company's
 * takes.
 *
 * <p>Written by {@link AgentAllowlistService} after every change it commits and by
 * {@link io.trimus.egress.policy.replica.PolicyFeed} with what is stored; each agent's state carries the stored
 * revision of its row, so updates that arrive out of order never bring back an older state (a removed list included).
 */
@ApplicationScoped
public class AgentAllowlistCache {
    private final Map<Key, State> byAgent = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    private record Key(UUID companyId, UUID agentId) {
    }

    /** One agent's state at a stored revision: its compiled list (keyed by the agent id), or null without one. */
    private record State(long revision, AllowlistCache list) {
    }

    /** Whether the agent of the company has a list of its own. */
    public boolean hasOwnList(UUID companyId, UUID agentId) {
        return own(companyId, agentId) != null;
    }

    /**
     * The agent's half of {@link AllowlistCache#allows}: true without a list of its own, else whether its list
     * matches the normalised {@code name}.
     */
    public boolean allows(UUID companyId, UUID agentId, CharSequence name) {
        AllowlistCache own = own(companyId, agentId);
        return own == null || own.allows(agentId, name);
    }

    /** The agent's half of {@link AllowlistCache#allowsPort}: true without a list of its own. */
    public boolean allowsPort(UUID companyId, UUID agentId, String name, int port, Set<Integer> defaultPorts) {
        AllowlistCache own = own(companyId, agentId);
        return own == null || own.allowsPort(agentId, name, port, defaultPorts);
    }

    /**
     * Whether the agent's half lets {@code port} count as named for {@code name} ({@link AllowlistCache#namedPorts}):
     * true without a list of its own, else whether an entry of its list names that port.
     */
    public boolean namesPort(UUID companyId, UUID agentId, String name, int port) {
        AllowlistCache own = own(companyId, agentId);
        return own == null || own.namedPorts(agentId, name).contains(port);
    }

    /**
     * The agent's half of {@link AllowlistCache#requestRules}: the entries of its own list with request rules every
     * request to {@code port} of {@code name} must pass (one of them); empty without a list of its own, or when its
     * list opens the host there without rules (then only the company's rules, if any, apply).
     */
    public List<RuledEntry> requestRules(UUID companyId, UUID agentId, String name, int port,
                                         Set<Integer> defaultPorts) {
        AllowlistCache own = own(companyId, agentId);
        return own == null ? List.of() : own.requestRules(agentId, name, port, defaultPorts);
    }

    /** The agent's own normalised entries; empty when it has no list of its own. */
    public Optional<List<String>> entries(UUID companyId, UUID agentId) {
        AllowlistCache own = own(companyId, agentId);
        return own == null ? Optional.empty() : own.entries(agentId);
    }

    /**
     * Sets the agent's state as of a stored {@code revision}: its normalised {@code entries}, or none (null) when it
     * has no list of its own; unless the cache holds that or a newer revision already.
     *
     * @return whether the cache now holds that state
     */
    public boolean replace(UUID companyId, UUID agentId, List<String> entries, long revision) {
        AllowlistCache list = null;
        if (entries != null) {
            list = new AllowlistCache();
            list.replace(agentId, entries);
        }
        State next = new State(revision, list);
        boolean held = byAgent.merge(new Key(companyId, agentId), next, (current, candidate) ->
                candidate.revision > current.revision ? candidate : current) == next;
        if (held) {
            changes.incrementAndGet();
        }
        return held;
    }

    /**
     * How many times an agent's list was set in memory since start: open proxy connections are checked again when it
     * moves ({@link io.trimus.egress.proxy.admission.ProxyPolicy#changes()}).
     */
    public long changes() {
        return changes.get();
    }

    /** Whether the cache holds the agent's state at a stored {@code revision} or a newer one. */
    public boolean holds(UUID companyId, UUID agentId, long revision) {
        State state = byAgent.get(new Key(companyId, agentId));
        return state != null && state.revision >= revision;
    }

    private AllowlistCache own(UUID companyId, UUID agentId) {
        if (companyId == null || agentId == null) {
            return null;
        }
        State state = byAgent.get(new Key(companyId, agentId));
        return state == null ? null : state.list;
    }
}
