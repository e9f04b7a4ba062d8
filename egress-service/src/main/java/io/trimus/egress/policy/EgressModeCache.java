package io.trimus.egress.policy;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every company's egress mode in memory, so the resolver and the proxy decide without waiting on the database.
 * Written by {@link EgressPolicyService} (at start from the database, then after every committed change); a lookup is
 * one hash probe. A company not held (none stored, or not loaded yet) is {@link EgressMode#ENFORCE}: the safe side.
 */
@ApplicationScoped
public class EgressModeCache implements EgressModes {
    private final Map<UUID, Versioned> byCompany = new ConcurrentHashMap<>();
    private volatile boolean loaded;

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
        return byCompany.merge(companyId, next, (current, candidate) ->
                candidate.revision() > current.revision() ? candidate : current) == next;
    }

    /** Marks that every stored policy has been loaded. */
    public void markLoaded() {
        loaded = true;
    }

    /** Whether the stored policies have been loaded since start. */
    public boolean isLoaded() {
        return loaded;
    }

    private record Versioned(EgressMode mode, long revision) {
    }
}
