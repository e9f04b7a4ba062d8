package io.trimus.egress.allowlist;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every company's allowlist in memory, so the resolver decides without waiting on the database. Written by the
 * allowlist service (at start from the database, then on every change); read on every query.
 */
@ApplicationScoped
public class AllowlistCache {
    private final Map<UUID, List<String>> entriesByCompany = new ConcurrentHashMap<>();

    /** Whether the company allow-listed the normalised {@code name}. */
    public boolean allows(UUID companyId, String name) {
        List<String> entries = entriesByCompany.get(companyId);
        if (entries == null) {
            return false;
        }
        for (String entry : entries) {
            if (DomainNames.matches(entry, name)) {
                return true;
            }
        }
        return false;
    }

    /** Replaces the company's normalised entries. */
    public void replace(UUID companyId, List<String> entries) {
        entriesByCompany.put(companyId, List.copyOf(entries));
    }
}
