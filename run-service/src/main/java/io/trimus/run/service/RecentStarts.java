package io.trimus.run.service;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The runs whose start this replica stored lately, up to a bound: a process lists a started run in every beat until
 * it ends, and storing it once is enough.
 */
final class RecentStarts {
    private final Map<UUID, Boolean> stored;

    RecentStarts(int capacity) {
        this.stored = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized List<UUID> unseen(List<UUID> started) {
        List<UUID> fresh = new ArrayList<>();
        for (UUID id : started) {
            if (!stored.containsKey(id)) {
                fresh.add(id);
            }
        }
        return fresh;
    }

    synchronized void remember(List<UUID> runIds) {
        runIds.forEach(id -> stored.put(id, Boolean.TRUE));
    }
}
