package io.trimus.adapter.service;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** The most recent ids seen, up to a bound; the oldest is forgotten first. Not thread-safe. */
final class RecentIds<V> {

    private final LinkedHashMap<UUID, V> ids;

    RecentIds(int capacity) {
        this.ids = new LinkedHashMap<>(capacity * 4 / 3 + 1, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<UUID, V> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records the id; false when it was already there. */
    boolean add(UUID id, V value) {
        if (ids.containsKey(id)) {
            return false;
        }
        ids.put(id, value);
        return true;
    }

    boolean contains(UUID id) {
        return ids.containsKey(id);
    }

    V get(UUID id) {
        return ids.get(id);
    }

    V remove(UUID id) {
        return ids.remove(id);
    }
}
