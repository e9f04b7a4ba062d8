package io.trimus.egress.allowlist;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every company's allowlist in memory, so the resolver decides without waiting on the database. Written by the
 * allowlist service after every change it commits, and by {@link io.trimus.egress.policy.replica.PolicyFeed} with
 * what is stored (at start, and whenever another replica changes a list); read on every query.
 *
 * <p>A lookup costs one hash probe per label of the name, whatever the length of the list: exact entries and
 * wildcard suffixes are kept in hash sets, and those that name a port ({@code host:port}) in hash maps to their
 * ports. Matching a name means exactly what {@link AllowlistRule#matches} says.
 */
@ApplicationScoped
public class AllowlistCache {
    // Set by an unconditional replace: any stored revision supersedes it.
    private static final long UNVERSIONED = Long.MIN_VALUE;

    private final Map<UUID, Compiled> byCompany = new ConcurrentHashMap<>();
    private final AtomicLong changes = new AtomicLong();

    /**
     * Whether the company allow-listed the normalised {@code name}, by any entry, with or without a port. Builds
     * nothing: the resolver asks it with the name it read from the packet.
     */
    public boolean allows(UUID companyId, CharSequence name) {
        Compiled list = companyId == null ? null : byCompany.get(companyId);
        return list != null && list.allows(name);
    }

    /**
     * Whether the company allows connections to {@code port} of the normalised {@code name}: a port-less entry
     * matching the name opens the {@code defaultPorts} (the proxy's TRIMUS_EGRESS_PROXY_PORTS), and an entry
     * {@code name:port} or {@code *.suffix:port} matching it opens exactly that port. So {@code git.example.com:22}
     * alone opens 22 of that name, not 443.
     */
    public boolean allowsPort(UUID companyId, String name, int port, Set<Integer> defaultPorts) {
        Compiled list = companyId == null ? null : byCompany.get(companyId);
        return list != null && list.allowsPort(name, port, defaultPorts);
    }

    /**
     * The ports that entries matching the normalised {@code name} name explicitly (empty when only port-less entries,
     * or none, match): what tells a named port from a default one.
     */
    public Set<Integer> namedPorts(UUID companyId, String name) {
        Compiled list = companyId == null ? null : byCompany.get(companyId);
        return list == null ? Set.of() : list.namedPorts(name);
    }

    /**
     * The entries with request rules ({@link RuledEntry#hasRequestRules}) that open {@code port} of the normalised
     * {@code name}, when those are all that open it: every request to it must pass one of them. Empty when an entry
     * without request rules opens the port (the host is a plain tunnel), or none does.
     */
    public List<RuledEntry> requestRules(UUID companyId, String name, int port, Set<Integer> defaultPorts) {
        Compiled list = companyId == null ? null : byCompany.get(companyId);
        if (list == null || list.ruled.isEmpty() || list.allowsPlainPort(name, port, defaultPorts)) {
            return List.of();
        }
        return list.ruledFor(name, port, defaultPorts);
    }

    /** Replaces the company's normalised entries. */
    public void replace(UUID companyId, List<String> entries) {
        byCompany.put(companyId, Compiled.of(UNVERSIONED, entries));
        changes.incrementAndGet();
    }

    /**
     * Replaces the company's normalised entries with those of a stored {@code revision}, unless the cache already
     * holds that or a newer revision: updates that arrive out of order never bring back an older list.
     *
     * @return whether the cache now holds {@code entries}
     */
    public boolean replace(UUID companyId, List<String> entries, long revision) {
        Compiled next = Compiled.of(revision, entries);
        boolean held = byCompany.merge(companyId, next, (current, candidate) ->
                candidate.revision > current.revision ? candidate : current) == next;
        if (held) {
            changes.incrementAndGet();
        }
        return held;
    }

    /**
     * How many times a list was replaced in memory since start: open proxy connections are checked again when it
     * moves ({@link io.trimus.egress.proxy.admission.ProxyPolicy#changes()}).
     */
    public long changes() {
        return changes.get();
    }

    /** The company's normalised entries as the resolver sees them, in the order they were given. */
    public Optional<List<String>> entries(UUID companyId) {
        return Optional.ofNullable(byCompany.get(companyId)).map(Compiled::entries);
    }

    /** Whether the cache holds the company's list at a stored {@code revision} or a newer one. */
    public boolean holds(UUID companyId, long revision) {
        Compiled list = byCompany.get(companyId);
        return list != null && list.revision >= revision;
    }

    /**
     * A list compiled for lookups. Port-less entries go to {@code exact}/{@code wildcardSuffixes}; entries that name
     * a port go to {@code exactPorts}/{@code wildcardPorts}, keyed by name or suffix, so a lookup stays one hash probe
     * per label whatever the list holds.
     */
    private record Compiled(long revision, List<String> entries, Set<String> exact, Set<String> wildcardSuffixes,
                            Map<String, Ports> exactPorts, Map<String, Ports> wildcardPorts,
                            NameSet resolvableNames, NameSet resolvableSuffixes, List<RuledEntry> ruled) {

        static Compiled of(long revision, List<String> entries) {
            Set<String> exact = new HashSet<>();
            Set<String> suffixes = new HashSet<>();
            Map<String, Set<Integer>> exactPorts = new HashMap<>();
            Map<String, Set<Integer>> wildcardPorts = new HashMap<>();
            List<RuledEntry> ruled = new java.util.ArrayList<>();
            Set<String> ruledNames = new HashSet<>();
            Set<String> ruledSuffixes = new HashSet<>();
            for (String entry : entries) {
                for (AllowlistRule rule : plainRules(entry, ruled)) {
                    String key = rule.wildcard() ? rule.host().substring(2) : rule.host();
                    if (rule.namesPort()) {
                        (rule.wildcard() ? wildcardPorts : exactPorts).computeIfAbsent(key, k -> new HashSet<>())
                                .add(rule.port());
                    } else {
                        (rule.wildcard() ? suffixes : exact).add(key);
                    }
                }
            }
            for (RuledEntry entry : ruled) {
                if (entry.host().startsWith("*.")) {
                    ruledSuffixes.add(entry.host().substring(2));
                } else {
                    ruledNames.add(entry.host());
                }
            }
            Set<String> resolvableNames = new HashSet<>(exact);
            resolvableNames.addAll(exactPorts.keySet());
            resolvableNames.addAll(ruledNames);
            Set<String> resolvableSuffixes = new HashSet<>(suffixes);
            resolvableSuffixes.addAll(wildcardPorts.keySet());
            resolvableSuffixes.addAll(ruledSuffixes);
            return new Compiled(revision, List.copyOf(entries), Set.copyOf(exact), Set.copyOf(suffixes),
                    Ports.compile(exactPorts), Ports.compile(wildcardPorts),
                    NameSet.of(resolvableNames), NameSet.of(resolvableSuffixes), List.copyOf(ruled));
        }

        /**
         * The host-and-port rules a stored entry amounts to when it has no request rules (a string; an object
         * without methods and paths: a port-less rule, or one per port it lists); an entry with request rules goes
         * to {@code ruled} instead.
         */
        private static List<AllowlistRule> plainRules(String entry, List<RuledEntry> ruled) {
            if (!RuledEntry.isStoredObject(entry)) {
                return List.of(AllowlistRule.ofNormalised(entry));
            }
            RuledEntry object = RuledEntry.ofStored(entry);
            if (object.hasRequestRules()) {
                ruled.add(object);
                return List.of();
            }
            if (object.ports().isEmpty()) {
                return List.of(new AllowlistRule(object.host(), AllowlistRule.ANY_DEFAULT_PORT));
            }
            return object.ports().stream().map(port -> new AllowlistRule(object.host(), port)).toList();
        }

        List<RuledEntry> ruledFor(String name, int port, Set<Integer> defaultPorts) {
            List<RuledEntry> matching = new java.util.ArrayList<>(2);
            for (RuledEntry entry : ruled) {
                if (entry.matchesName(name) && entry.opens(port, defaultPorts)) {
                    matching.add(entry);
                }
            }
            return matching;
        }

        /** Whether an entry of any form, with or without a port, matches the name: it may be resolved. */
        boolean allows(CharSequence name) {
            return resolvableNames.containsNameOrSuffix(name, false)
                    || resolvableSuffixes.containsNameOrSuffix(name, true);
        }

        boolean allowsPort(String name, int port, Set<Integer> defaultPorts) {
            return allowsPlainPort(name, port, defaultPorts)
                    || !ruled.isEmpty() && !ruledFor(name, port, defaultPorts).isEmpty();
        }

        /** Whether an entry without request rules opens the port. */
        boolean allowsPlainPort(String name, int port, Set<Integer> defaultPorts) {
            if (defaultPorts.contains(port) && allowsWithoutPort(name)) {
                return true;
            }
            Ports ports = exactPorts.get(name);
            if (ports != null && ports.contains(port)) {
                return true;
            }
            if (wildcardPorts.isEmpty()) {
                return false;
            }
            for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
                ports = wildcardPorts.get(name.substring(dot + 1));
                if (ports != null && ports.contains(port)) {
                    return true;
                }
            }
            return false;
        }

        Set<Integer> namedPorts(String name) {
            Ports exactMatch = exactPorts.get(name);
            Set<Integer> named = exactMatch == null ? Set.of() : exactMatch.set();
            for (RuledEntry entry : ruled) {
                if (!entry.ports().isEmpty() && entry.matchesName(name)) {
                    Set<Integer> more = new HashSet<>(named);
                    more.addAll(entry.ports());
                    named = Set.copyOf(more);
                }
            }
            if (wildcardPorts.isEmpty()) {
                return named;
            }
            Set<Integer> union = null;
            for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
                Ports ports = wildcardPorts.get(name.substring(dot + 1));
                if (ports == null) {
                    continue;
                }
                if (named.isEmpty()) {
                    named = ports.set();
                } else {
                    if (union == null) {
                        union = new HashSet<>(named);
                    }
                    union.addAll(ports.set());
                }
            }
            return union == null ? named : Set.copyOf(union);
        }

        private boolean allowsWithoutPort(String name) {
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

    /** The ports entries name for one name or suffix: sorted for a lookup without boxing, and as a set to hand out. */
    private record Ports(int[] sorted, Set<Integer> set) {

        static Map<String, Ports> compile(Map<String, Set<Integer>> byKey) {
            Map<String, Ports> compiled = new HashMap<>();
            byKey.forEach((key, ports) -> compiled.put(key, new Ports(
                    ports.stream().mapToInt(Integer::intValue).sorted().toArray(), Set.copyOf(ports))));
            return Map.copyOf(compiled);
        }

        boolean contains(int port) {
            return Arrays.binarySearch(sorted, port) >= 0;
        }
    }
}
