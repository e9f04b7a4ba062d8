package io.trimus.egress.policy.replica;

import io.trimus.commons.rows.RowVisibility;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModeColumn;
import io.vertx.core.Future;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a replica reads of the stored egress policy to follow it, on its own listening connection (so each read also
 * proves that connection alive): the policy revision (migration V12), and what changed against what it holds, read
 * in one snapshot so the revision matches the rows. Every company's rows, as Trimus's own work.
 */
final class StoredPolicy {
    private static final String REVISION = "select revision from egress.policy_revision";

    private StoredPolicy() {
    }

    /** A mode at its stored revision. */
    record ModeAt(EgressMode mode, long revision) {
    }

    /** A list's entries at its stored revision. */
    record ListAt(List<String> entries, long revision) {
    }

    /** Which agent of which company. */
    record Agent(UUID companyId, UUID agentId) {
    }

    /** An agent's own list at its stored revision: its entries, or null when it has no list of its own. */
    record AgentListAt(List<String> entries, long revision) {
    }

    /**
     * The stored policy as of one snapshot, for what a replica does not hold yet: every company's mode (a few bytes
     * each), the entries of each list stored at a revision the replica does not hold, and the same for agents' own
     * lists (migration V13).
     *
     * @param revision the policy revision of the snapshot: the replica holds it once these are applied
     */
    record Changes(long revision, Map<UUID, ModeAt> modes, Map<UUID, ListAt> lists,
                   Map<Agent, AgentListAt> agentLists) {
    }

    /** Which agents' list revisions the replica holds already. */
    @FunctionalInterface
    interface HeldAgents {
        /** Whether the replica holds the agent's state at {@code revision} or a newer one. */
        boolean holds(UUID companyId, UUID agentId, long revision);
    }

    /** Which list revisions the replica holds already. */
    @FunctionalInterface
    interface Held {
        /** Whether the replica holds the company's list at {@code revision} or a newer one. */
        boolean holds(UUID companyId, long revision);
    }

    /** The current policy revision. */
    static Future<Long> revision(PgConnection on) {
        return on.query(REVISION).execute().map(rows -> rows.iterator().next().getLong(0));
    }

    /** What changed against {@code held}, read in one read-only snapshot. */
    static Future<Changes> changes(PgConnection on, Held held, HeldAgents heldAgents) {
        return on.begin().compose(tx -> read(on, held, heldAgents).eventually(() -> tx.rollback()));
    }

    private static Future<Changes> read(PgConnection on, Held held, HeldAgents heldAgents) {
        return on.query("set transaction isolation level repeatable read, read only").execute()
                .compose(v -> on.preparedQuery("select set_config($1, 'on', true)")
                        .execute(Tuple.of(RowVisibility.ALL_COMPANIES_SETTING)))
                .compose(v -> on.query(REVISION).execute())
                .compose(revision -> on.query("select company_id, mode, revision from egress.egress_policy").execute()
                        .compose(modes -> on.query("select company_id, revision from egress.allowlist").execute()
                                .compose(lists -> entries(on, lists, held))
                                .compose(changed -> agentEntries(on, heldAgents).map(agents -> new Changes(
                                        revision.iterator().next().getLong(0), modes(modes), changed, agents)))));
    }

    /**
     * The state of every agent whose row is stored at a revision the replica does not hold: its entries, sorted, or
     * none when it has no list of its own.
     */
    private static Future<Map<Agent, AgentListAt>> agentEntries(PgConnection on, HeldAgents held) {
        return on.query("select company_id, agent_id, revision, own_list from egress.agent_allowlist").execute()
                .compose(rows -> {
                    Map<Agent, AgentListAt> changed = new HashMap<>();
                    List<UUID> companies = new ArrayList<>();
                    List<UUID> agents = new ArrayList<>();
                    for (Row row : rows) {
                        Agent agent = new Agent(row.getUUID(0), row.getUUID(1));
                        long revision = row.getLong(2);
                        if (held.holds(agent.companyId(), agent.agentId(), revision)) {
                            continue;
                        }
                        boolean own = row.getBoolean(3);
                        changed.put(agent, new AgentListAt(own ? new ArrayList<>() : null, revision));
                        if (own) {
                            companies.add(agent.companyId());
                            agents.add(agent.agentId());
                        }
                    }
                    if (companies.isEmpty()) {
                        return Future.succeededFuture(changed);
                    }
                    return on.preparedQuery("select e.company_id, e.agent_id, e.entry"
                                    + " from egress.agent_allowlist_entry e"
                                    + " join unnest($1::uuid[], $2::uuid[]) as w (company_id, agent_id)"
                                    + " on w.company_id = e.company_id and w.agent_id = e.agent_id"
                                    + " order by e.company_id, e.agent_id, e.entry")
                            .execute(Tuple.tuple().addArrayOfUUID(companies.toArray(UUID[]::new))
                                    .addArrayOfUUID(agents.toArray(UUID[]::new)))
                            .map(entries -> {
                                for (Row row : entries) {
                                    changed.get(new Agent(row.getUUID(0), row.getUUID(1))).entries()
                                            .add(row.getString(2));
                                }
                                return changed;
                            });
                });
    }

    private static Map<UUID, ModeAt> modes(RowSet<Row> rows) {
        EgressModeColumn column = new EgressModeColumn();
        Map<UUID, ModeAt> modes = new HashMap<>();
        for (Row row : rows) {
            modes.put(row.getUUID(0), new ModeAt(column.convertToEntityAttribute(row.getString(1)), row.getLong(2)));
        }
        return modes;
    }

    /** The entries of every list stored at a revision the replica does not hold, sorted as the service stores them. */
    private static Future<Map<UUID, ListAt>> entries(PgConnection on, RowSet<Row> lists, Held held) {
        Map<UUID, Long> wanted = new HashMap<>();
        for (Row row : lists) {
            if (!held.holds(row.getUUID(0), row.getLong(1))) {
                wanted.put(row.getUUID(0), row.getLong(1));
            }
        }
        if (wanted.isEmpty()) {
            return Future.succeededFuture(Map.of());
        }
        return on.preparedQuery("select company_id, entry from egress.allowlist_entry where company_id = any($1)"
                        + " order by company_id, entry")
                .execute(Tuple.tuple().addArrayOfUUID(wanted.keySet().toArray(UUID[]::new)))
                .map(rows -> {
                    Map<UUID, List<String>> entries = new HashMap<>();
                    for (Row row : rows) {
                        entries.computeIfAbsent(row.getUUID(0), id -> new ArrayList<>()).add(row.getString(1));
                    }
                    Map<UUID, ListAt> changed = new HashMap<>();
                    wanted.forEach((company, revision) -> changed.put(company,
                            new ListAt(entries.getOrDefault(company, List.of()), revision)));
                    return changed;
                });
    }
}
