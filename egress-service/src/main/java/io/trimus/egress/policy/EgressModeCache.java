package io.trimus.egress.policy;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every company's egress mode in memory, so the resolver and the proxy decide without waiting on the database.
 * Written by {@link EgressPolicyService} after every change it commits, and by
 * {@link io.trimus.egress.policy.replica.PolicyFeed} with what is stored (at start, and whenever another replica
 * changes a mode); a lookup is one hash probe. A company not held (none
 * stored, or not loaded yet) is {@link EgressMode#ENFORCE}: the safe side.
 */
@ApplicationScoped
public class EgressModeCache implements EgressModes {
    private final Map<UUID, Versioned> byCompany = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    @Override
    public EgressMode mode(UUID companyId) {
        Versioned held = companyId == null ? null : byCompany.get(companyId);
        return held == null ? EgressMode.ENFORCE : held.mode();
    }

    /**
     * Holds {@code mode} of a stored {@code revision} for the company, unless it already holds that or a newer
     * revision: updates that arrive out of order never bring back an older mode.
     *
     * @return whether the cache now holds {@code mode} at {@code revision}
     */
    public boolean replace(UUID companyId, EgressMode mode, long revision) {
        Versioned next = new Versioned(mode, revision);
        Versioned before = byCompany.get(companyId);
        boolean held = byCompany.merge(companyId, next, (current, candidate) ->
                candidate.revision() > current.revision() ? candidate : current) == next;
        if (held && (before == null || before.mode() != mode)) {
            changes.incrementAndGet();
        }
        return held;
    }

    @Override
    public long changes() {
        return changes.get();
    }

    private record Versioned(EgressMode mode, long revision) {
    }
}
