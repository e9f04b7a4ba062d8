package io.trimus.egress.allowlist;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The cache decides exactly as the entries' rules do, with and without ports, and never goes back to an older list. */
class AllowlistCacheTest {
    private static final List<String> LABELS = List.of("a", "b", "example", "com", "org", "xn--bcher-kva", "api");
    private static final List<Integer> PORTS = List.of(22, 80, 443, 5432, 8443, 65535);
    private static final Set<Integer> DEFAULT_PORTS = Set.of(443, 80);

    @Test
    void itAllowsExactlyTheNamesSomeEntryMatches() {
        Random random = new Random(20260115);
        AllowlistCache cache = new AllowlistCache();
        for (int round = 0; round < 2_000; round++) {
            UUID company = UUID.randomUUID();
            List<String> entries = random.ints(1 + random.nextInt(4), 0, 100)
                    .mapToObj(i -> (random.nextBoolean() ? "*." : "") + name(random, 2 + random.nextInt(2))).toList();
            cache.replace(company, entries);
            for (int q = 0; q < 20; q++) {
                String name = name(random, 1 + random.nextInt(4));

                boolean expected = entries.stream().anyMatch(entry -> DomainNames.matches(entry, name));

                assertThat(cache.allows(company, name)).as("%s against %s", name, entries).isEqualTo(expected);
            }
        }
    }

    @Test
    void portsAreAllowedExactlyAsTheEntriesSay() {
        Random random = new Random(20261201);
        AllowlistCache cache = new AllowlistCache();
        for (int round = 0; round < 2_000; round++) {
            UUID company = UUID.randomUUID();
            List<String> entries = random.ints(1 + random.nextInt(5), 0, 100)
                    .mapToObj(i -> (random.nextBoolean() ? "*." : "") + name(random, 2 + random.nextInt(2))
                            + (random.nextBoolean() ? ":" + PORTS.get(random.nextInt(PORTS.size())) : ""))
                    .toList();
            List<AllowlistRule> rules = entries.stream().map(AllowlistRule::ofNormalised).toList();
            cache.replace(company, entries);
            for (int q = 0; q < 20; q++) {
                String name = name(random, 1 + random.nextInt(4));
                int port = PORTS.get(random.nextInt(PORTS.size()));
                List<AllowlistRule> matching = rules.stream().filter(rule -> rule.matches(name)).toList();
                Set<Integer> named = matching.stream().filter(AllowlistRule::namesPort).map(AllowlistRule::port)
                        .collect(Collectors.toSet());
                boolean expected = named.contains(port)
                        || DEFAULT_PORTS.contains(port) && matching.stream().anyMatch(rule -> !rule.namesPort());

                assertThat(cache.allows(company, name)).as("%s against %s", name, entries)
                        .isEqualTo(!matching.isEmpty());
                assertThat(cache.allowsPort(company, name, port, DEFAULT_PORTS))
                        .as("%s:%d against %s", name, port, entries).isEqualTo(expected);
                assertThat(cache.namedPorts(company, name)).as("%s against %s", name, entries)
                        .isEqualTo(named);
            }
        }
    }

    @Test
    void aNamedPortOpensThatPortOnlyAndAPortlessEntryTheDefaults() {
        AllowlistCache cache = new AllowlistCache();
        UUID company = UUID.randomUUID();
        cache.replace(company, List.of("git.example.com:22", "*.db.example.com:5432", "*.db.example.com:5433",
                "api.example.com", "api.example.com:8443", "shop.db.example.com:6000"));

        assertThat(cache.allows(company, "git.example.com")).as("resolvable for its named port").isTrue();
        assertThat(cache.allowsPort(company, "git.example.com", 22, DEFAULT_PORTS)).isTrue();
        assertThat(cache.allowsPort(company, "git.example.com", 443, DEFAULT_PORTS)).isFalse();
        assertThat(cache.allowsPort(company, "git.example.com", 80, DEFAULT_PORTS)).isFalse();
        assertThat(cache.namedPorts(company, "git.example.com")).containsExactly(22);

        assertThat(cache.allowsPort(company, "eu.db.example.com", 5432, DEFAULT_PORTS)).isTrue();
        assertThat(cache.allowsPort(company, "eu.db.example.com", 443, DEFAULT_PORTS)).isFalse();
        assertThat(cache.allowsPort(company, "db.example.com", 5432, DEFAULT_PORTS)).as("sub-names only").isFalse();
        assertThat(cache.allows(company, "db.example.com")).isFalse();
        assertThat(cache.namedPorts(company, "shop.db.example.com")).containsExactlyInAnyOrder(5432, 5433, 6000);

        assertThat(cache.allowsPort(company, "api.example.com", 443, DEFAULT_PORTS)).isTrue();
        assertThat(cache.allowsPort(company, "api.example.com", 80, DEFAULT_PORTS)).isTrue();
        assertThat(cache.allowsPort(company, "api.example.com", 8443, DEFAULT_PORTS)).isTrue();
        assertThat(cache.allowsPort(company, "api.example.com", 22, DEFAULT_PORTS)).isFalse();
        assertThat(cache.allowsPort(company, "api.example.com", 443, Set.of(80))).as("the defaults are the caller's")
                .isFalse();
        assertThat(cache.namedPorts(company, "api.example.com")).containsExactly(8443);

        assertThat(cache.allowsPort(UUID.randomUUID(), "git.example.com", 22, DEFAULT_PORTS)).isFalse();
        assertThat(cache.allowsPort(null, "git.example.com", 22, DEFAULT_PORTS)).isFalse();
        assertThat(cache.namedPorts(UUID.randomUUID(), "git.example.com")).isEmpty();
        assertThat(cache.namedPorts(company, "other.example.com")).isEmpty();
    }

    @Test
    void aWildcardCoversSubNamesOnly() {
        AllowlistCache cache = new AllowlistCache();
        UUID company = UUID.randomUUID();
        cache.replace(company, List.of("*.example.com", "api.github.com"));

        assertThat(cache.allows(company, "cdn.example.com")).isTrue();
        assertThat(cache.allows(company, "a.b.example.com")).isTrue();
        assertThat(cache.allows(company, "example.com")).isFalse();
        assertThat(cache.allows(company, "badexample.com")).isFalse();
        assertThat(cache.allows(company, "api.github.com")).isTrue();
        assertThat(cache.allows(company, "x.api.github.com")).isFalse();
        assertThat(cache.allows(UUID.randomUUID(), "api.github.com")).isFalse();
        assertThat(cache.allows(null, "api.github.com")).isFalse();
    }

    @Test
    void anOlderRevisionNeverReplacesANewerOne() {
        AllowlistCache cache = new AllowlistCache();
        UUID company = UUID.randomUUID();

        assertThat(cache.replace(company, List.of("new.example"), 7)).isTrue();
        assertThat(cache.replace(company, List.of("old.example"), 6)).isFalse();
        assertThat(cache.replace(company, List.of("same.example"), 7)).isFalse();

        assertThat(cache.entries(company)).contains(List.of("new.example"));
        assertThat(cache.allows(company, "old.example")).isFalse();
        assertThat(cache.replace(company, List.of("newer.example"), 8)).isTrue();
        assertThat(cache.allows(company, "newer.example")).isTrue();
    }

    @Test
    void aStoredRevisionSupersedesAnUnversionedList() {
        AllowlistCache cache = new AllowlistCache();
        UUID company = UUID.randomUUID();
        cache.replace(company, List.of("manual.example"));

        assertThat(cache.replace(company, List.of("stored.example"), 1)).isTrue();
        assertThat(cache.allows(company, "manual.example")).isFalse();
    }

    private static String name(Random random, int labels) {
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < labels; i++) {
            name.append(i == 0 ? "" : ".").append(LABELS.get(random.nextInt(LABELS.size())));
        }
        return name.toString();
    }
}
