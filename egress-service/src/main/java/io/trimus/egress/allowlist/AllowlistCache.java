package io.trimus.egress.allowlist;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every company's allowlist in memory, so the resolver decides without waiting on the database. Written by the
 * allowlist service (at start from the database, then on every change); read on every query.
 *
 * <p>A lookup costs one hash probe per label of the name, whatever the length of the list: exact entries and
 * wildcard suffixes are kept in hash sets. Matching means exactly what {@link DomainNames#matches} says.
 */
@ApplicationScoped
public class AllowlistCache {
    // Set by an unconditional replace: any stored revision supersedes it.
    private static final long UNVERSIONED = Long.MIN_VALUE;

    private final Map<UUID, Compiled> byCompany = new ConcurrentHashMap<>();
    private volatile boolean loaded;

    /** Whether the company allow-listed the normalised {@code name}. */
    public boolean allows(UUID companyId, String name) {
        Compiled list = companyId == null ? null : byCompany.get(companyId);
        return list != null && list.allows(name);
    }

    /** Replaces the company's normalised entries. */
    public void replace(UUID companyId, List<String> entries) {
        byCompany.put(companyId, Compiled.of(UNVERSIONED, entries));
    }

    /**
     * Replaces the company's normalised entries with those of a stored {@code revision}, unless the cache already
     * holds that or a newer revision: updates that arrive out of order never bring back an older list.
     *
     * @return whether the cache now holds {@code entries}
     */
    public boolean replace(UUID companyId, List<String> entries, long revision) {
        Compiled next = Compiled.of(revision, entries);
        return byCompany.merge(companyId, next, (current, candidate) ->
                candidate.revision > current.revision ? candidate : current) == next;
    }

    /** The company's normalised entries as the resolver sees them, in the order they were given. */
    public Optional<List<String>> entries(UUID companyId) {
        return Optional.ofNullable(byCompany.get(companyId)).map(Compiled::entries);
    }

    /** Marks that every stored allowlist has been loaded; before that, every name is denied. */
    public void markLoaded() {
        loaded = true;
    }

    /** Whether the stored allowlists have been loaded since start. */
    public boolean isLoaded() {
        return loaded;
    }

    private record Compiled(long revision, List<String> entries, Set<String> exact, Set<String> wildcardSuffixes) {

        static Compiled of(long revision, List<String> entries) {
            Set<String> exact = new HashSet<>();
            Set<String> suffixes = new HashSet<>();
            for (String entry : entries) {
                if (entry.startsWith("*.")) {
                    suffixes.add(entry.substring(2));
                } else {
                    exact.add(entry);
                }
            }
            return new Compiled(revision, List.copyOf(entries), Set.copyOf(exact), Set.copyOf(suffixes));
        }

        boolean allows(String name) {
            if (exact.contains(name)) {
                return true;
            }
            if (wildcardSuffixes.isEmpty()) {
                return false;
            }
            // *.example.com matches every name that ends in ".example.com": try each suffix after a dot
            for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
                if (wildcardSuffixes.contains(name.substring(dot + 1))) {
                    return true;
                }
            }
            return false;
        }
    }
}
