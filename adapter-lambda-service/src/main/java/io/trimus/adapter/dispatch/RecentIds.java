package io.trimus.adapter.dispatch;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.util.UUID;

/**
 * The ids seen lately, up to a bound, for deduplication; past the bound Caffeine forgets the entries least likely to
 * be asked about again. Callers hold their own lock: {@link #add} is check-then-put.
 */
public final class RecentIds<V> {

    private final Cache<UUID, V> ids;

    public RecentIds(int capacity) {
        // eviction on the calling thread, so the bound holds the moment put returns
        this.ids = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
    }

    /** Records the id; false when it was already there. */
    public boolean add(UUID id, V value) {
        return ids.asMap().putIfAbsent(id, value) == null;
    }

    public boolean contains(UUID id) {
        return ids.getIfPresent(id) != null;
    }

    public V get(UUID id) {
        return ids.getIfPresent(id);
    }

    public V remove(UUID id) {
        return ids.asMap().remove(id);
    }
}
