package io.trimus.run.service.recovery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Ids seen lately, up to a bound, oldest forgotten first: the runs whose start this replica stored (a process lists a
 * started run in every beat until it ends, and storing it once is enough), the lease beats it has read (a consumer
 * rewound to its last committed offset reads some again).
 */
final class RecentIds {
    private final Map<UUID, Boolean> seen;

    RecentIds(int capacity) {
        this.seen = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Those of {@code ids} not seen lately, in their order. */
    synchronized List<UUID> unseen(List<UUID> ids) {
        List<UUID> fresh = new ArrayList<>();
        for (UUID id : ids) {
            if (!seen.containsKey(id)) {
                fresh.add(id);
            }
        }
        return fresh;
    }

    /** Remembers the ids. */
    synchronized void remember(List<UUID> ids) {
        ids.forEach(id -> seen.put(id, Boolean.TRUE));
    }

    /** Remembers {@code id}; false when it was seen lately already. */
    synchronized boolean firstTime(UUID id) {
        return seen.put(id, Boolean.TRUE) == null;
    }
}
