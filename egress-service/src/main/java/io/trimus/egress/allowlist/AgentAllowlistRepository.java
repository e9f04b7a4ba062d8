package io.trimus.egress.allowlist;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/** Agents' own allowlists (migration V13), with the revision of each agent's row. */
@ApplicationScoped
public class AgentAllowlistRepository {

    /** The agent's own entries, sorted; empty when it has no list of its own. */
    public Uni<Optional<List<String>>> entriesOf(UUID companyId, UUID agentId) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select own_list from egress.agent_allowlist"
                        + " where company_id = ?1 and agent_id = ?2", Boolean.class)
                .setParameter(1, companyId)
                .setParameter(2, agentId)
                .getSingleResultOrNull()
                .flatMap(own -> !Boolean.TRUE.equals(own) ? Uni.createFrom().item(Optional.<List<String>>empty())
                        : session.createNativeQuery("select entry from egress.agent_allowlist_entry"
                                        + " where company_id = ?1 and agent_id = ?2 order by entry", String.class)
                                .setParameter(1, companyId)
                                .setParameter(2, agentId)
                                .getResultList()
                                .map(Optional::of)));
    }

    /**
     * Every agent of the company with a list of its own, by agent id, each list sorted (an empty one included): what a
     * policy document shows and replaces as a whole.
     */
    public Uni<SortedMap<UUID, List<String>>> ownListsOf(UUID companyId) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("select a.agent_id, e.entry from egress.agent_allowlist a"
                        + " left join egress.agent_allowlist_entry e"
                        + " on e.company_id = a.company_id and e.agent_id = a.agent_id"
                        + " where a.company_id = ?1 and a.own_list order by a.agent_id, e.entry", Object[].class)
                .setParameter(1, companyId)
                .getResultList()
                .map(rows -> {
                    SortedMap<UUID, List<String>> lists = new TreeMap<>();
                    for (Object[] row : rows) {
                        List<String> list = lists.computeIfAbsent((UUID) row[0], agent -> new ArrayList<>());
                        if (row[1] != null) {
                            list.add((String) row[1]);
                        }
                    }
                    return lists;
                }));
    }

    /**
     * Makes {@code entries} the agent's own list inside the current transaction and returns the new revision of its
     * row. The upsert locks that row first, so concurrent changes of one agent's list run one after the other.
     */
    public Uni<Long> replace(UUID companyId, UUID agentId, List<String> entries) {
        String[] wanted = entries.toArray(String[]::new);
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("insert into egress.agent_allowlist as a"
                                + " (company_id, agent_id, own_list, revision, updated_at) values (?1, ?2, true, 1, now())"
                                + " on conflict (company_id, agent_id) do update"
                                + " set own_list = true, revision = a.revision + 1, updated_at = now()"
                                + " returning revision", Long.class)
                .setParameter(1, companyId)
                .setParameter(2, agentId)
                .getSingleResult()
                .call(revision -> session
                        .createNativeQuery("delete from egress.agent_allowlist_entry where company_id = ?1"
                                + " and agent_id = ?2 and entry <> all (cast(?3 as text[]))")
                        .setParameter(1, companyId)
                        .setParameter(2, agentId)
                        .setParameter(3, wanted)
                        .executeUpdate())
                .call(revision -> session
                        .createNativeQuery("insert into egress.agent_allowlist_entry"
                                + " (company_id, agent_id, entry, created_at)"
                                + " select ?1, ?2, e, now() from unnest(cast(?3 as text[])) as e"
                                + " on conflict (company_id, agent_id, md5(entry)) do nothing")
                        .setParameter(1, companyId)
                        .setParameter(2, agentId)
                        .setParameter(3, wanted)
                        .executeUpdate()));
    }

    /**
     * Removes the agent's own list inside the current transaction: its entries go, its row stays with
     * {@code own_list} false at a new revision. Returns that revision, or null when the agent had no list.
     */
    public Uni<Long> remove(UUID companyId, UUID agentId) {
        return Panache.getSession().flatMap(session -> session
                .createNativeQuery("update egress.agent_allowlist set own_list = false, revision = revision + 1,"
                        + " updated_at = now() where company_id = ?1 and agent_id = ?2 and own_list"
                        + " returning revision", Long.class)
                .setParameter(1, companyId)
                .setParameter(2, agentId)
                .getSingleResultOrNull()
                .call(revision -> revision == null ? Uni.createFrom().voidItem() : session
                        .createNativeQuery("delete from egress.agent_allowlist_entry"
                                + " where company_id = ?1 and agent_id = ?2")
                        .setParameter(1, companyId)
                        .setParameter(2, agentId)
                        .executeUpdate()));
    }
}
