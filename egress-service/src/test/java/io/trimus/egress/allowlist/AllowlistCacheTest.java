package io.trimus.egress.allowlist;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The cache decides exactly as DomainNames.matches does, and never goes back to an older list. */
class AllowlistCacheTest {
    private static final List<String> LABELS = List.of("a", "b", "example", "com", "org", "xn--bcher-kva", "api");

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
