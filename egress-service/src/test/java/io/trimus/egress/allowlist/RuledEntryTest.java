package io.trimus.egress.allowlist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.commons.problem.ProblemException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Object entries: parsed, checked with a 400 naming the field, stored canonically, matched as the proxy does. */
class RuledEntryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void anObjectIsStoredCanonicallyBesideStrings() {
        List<String> stored = AllowlistService.normaliseAll(List.of(json("\"example.org\""),
                json("{\"paths\": [\"/user\", \"/repos/acme/\", \"/user\"], \"methods\": [\"HEAD\", \"GET\"],"
                        + " \"host\": \"API.GitHub.com.\", \"ports\": [443]}")));
        assertThat(stored).containsExactly("example.org", "{\"host\":\"api.github.com\",\"ports\":[443],"
                + "\"methods\":[\"GET\",\"HEAD\"],\"paths\":[\"/repos/acme/\",\"/user\"]}");
        assertThat(RuledEntry.view(stored.get(1))).isEqualTo(json("{\"host\":\"api.github.com\",\"ports\":[443],"
                + "\"methods\":[\"GET\",\"HEAD\"],\"paths\":[\"/repos/acme/\",\"/user\"]}"));
        assertThat(RuledEntry.view(stored.get(0)).textValue()).isEqualTo("example.org");
        assertThat(RuledEntry.ofStored(stored.get(1)).text()).isEqualTo(stored.get(1));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"host\": 5}|entries[0].host",
            "{\"ports\": [443]}|entries[0].host",
            "{\"host\": \"api.github.com:443\"}|entries[0].host",
            "{\"host\": \"*.com\"}|entries[0].host",
            "{\"host\": \"a.example\", \"port\": [443]}|entries[0].port",
            "{\"host\": \"a.example\", \"ports\": [0]}|entries[0].ports[0]",
            "{\"host\": \"a.example\", \"ports\": [443, \"80\"]}|entries[0].ports[1]",
            "{\"host\": \"a.example\", \"ports\": []}|entries[0].ports",
            "{\"host\": \"a.example\", \"methods\": [\"get\"]}|entries[0].methods[0]",
            "{\"host\": \"a.example\", \"methods\": [\"GET\", \"TRACE\"]}|entries[0].methods[1]",
            "{\"host\": \"a.example\", \"methods\": \"GET\"}|entries[0].methods",
            "{\"host\": \"a.example\", \"paths\": [\"repos\"]}|entries[0].paths[0]",
            "{\"host\": \"a.example\", \"paths\": [\"/a\", \"/a?b=1\"]}|entries[0].paths[1]",
            "{\"host\": \"a.example\", \"paths\": [\"/a/../b\"]}|entries[0].paths[0]",
            "{\"host\": \"a.example\", \"paths\": [\"/a%2Fb\"]}|entries[0].paths[0]",
            "{\"host\": \"a.example\", \"paths\": [\"/%7Euser\"]}|entries[0].paths[0]",
            "{\"host\": \"a.example\", \"paths\": [\"/a b\"]}|entries[0].paths[0]",
            "{\"host\": \"a.example\", \"paths\": [7]}|entries[0].paths[0]",
    })
    void aWrongFieldIsNamed(String entry, String field) {
        ProblemException problem = catchThrowableOfType(ProblemException.class,
                () -> AllowlistService.normaliseAll(List.of(json(entry))));
        assertThat(problem).as(entry).isNotNull();
        assertThat(problem.getMessage() + problem.problem().toString()).contains(field);
    }

    @Test
    void listsAreBounded() {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 33; i++) {
            paths.add("\"/p" + i + "\"");
        }
        String entry = "{\"host\": \"a.example\", \"paths\": [" + String.join(",", paths) + "]}";
        assertThat(catchThrowableOfType(ProblemException.class,
                () -> AllowlistService.normaliseAll(List.of(json(entry))))).isNotNull();
        String atBound = "{\"host\": \"a.example\", \"paths\": [" + String.join(",", paths.subList(0, 32)) + "]}";
        assertThat(AllowlistService.normaliseAll(List.of(json(atBound)))).hasSize(1);
        String longPath = "/" + "a".repeat(RequestPaths.MAX_PREFIX_LENGTH);
        assertThat(catchThrowableOfType(ProblemException.class, () -> AllowlistService.normaliseAll(List.of(
                json("{\"host\": \"a.example\", \"paths\": [\"" + longPath + "\"]}"))))).isNotNull();
    }

    @Test
    void aRequestPassesWhenItsMethodAndNormalisedPathAreListed() {
        RuledEntry entry = RuledEntry.parse("e", json("{\"host\": \"api.github.com\", \"methods\": [\"GET\","
                + " \"HEAD\"], \"paths\": [\"/repos/acme/\", \"/user\"]}"));
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/repos/acme/x?per_page=1"))).isTrue();
        assertThat(entry.allowsRequest("HEAD", RequestPaths.normalise("/user"))).isTrue();
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/user/emails"))).isTrue();
        assertThat(entry.allowsRequest("POST", RequestPaths.normalise("/repos/acme/x"))).isFalse();
        assertThat(entry.allowsRequest("get", RequestPaths.normalise("/repos/acme/x"))).isFalse();
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/users"))).isFalse();
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/repos/acmeX/y"))).isFalse();
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/repos/acme"))).isFalse();
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/repos/acme/../evil/x"))).isFalse();
        assertThat(entry.allowsRequest("GET", RequestPaths.normalise("/repos/acme%2F..%2Fevil"))).isFalse();
        assertThat(entry.allowsRequest("GET", null)).isFalse();
        assertThat(entry.opens(443, Set.of(80, 443))).isTrue();
        assertThat(entry.matchesName("api.github.com")).isTrue();
        RuledEntry onlyMethods = RuledEntry.parse("e", json("{\"host\": \"a.example\", \"methods\": [\"GET\"],"
                + " \"ports\": [8443]}"));
        assertThat(onlyMethods.allowsRequest("GET", RequestPaths.normalise("/anything"))).isTrue();
        assertThat(onlyMethods.opens(443, Set.of(443))).isFalse();
        assertThat(onlyMethods.opens(8443, Set.of(443))).isTrue();
    }

    @Test
    void theCacheTellsRuledHostsFromPlainOnes() {
        AllowlistCache cache = new AllowlistCache();
        java.util.UUID company = java.util.UUID.randomUUID();
        cache.replace(company, AllowlistService.normaliseAll(List.of(
                json("{\"host\": \"api.github.com\", \"methods\": [\"GET\"]}"),
                json("{\"host\": \"plain.example\", \"ports\": [8443]}"),
                json("\"both.example\""),
                json("{\"host\": \"both.example\", \"paths\": [\"/a/\"]}"))));
        Set<Integer> defaults = Set.of(80, 443);
        assertThat(cache.allows(company, "api.github.com")).isTrue();
        assertThat(cache.allowsPort(company, "api.github.com", 443, defaults)).isTrue();
        assertThat(cache.allowsPort(company, "api.github.com", 22, defaults)).isFalse();
        assertThat(cache.requestRules(company, "api.github.com", 443, defaults)).hasSize(1);
        assertThat(cache.allowsPort(company, "plain.example", 8443, defaults)).isTrue();
        assertThat(cache.allowsPort(company, "plain.example", 443, defaults)).isFalse();
        assertThat(cache.namedPorts(company, "plain.example")).containsExactly(8443);
        assertThat(cache.requestRules(company, "plain.example", 8443, defaults)).isEmpty();
        // a plain entry for the same host opens it without rules: no interception
        assertThat(cache.requestRules(company, "both.example", 443, defaults)).isEmpty();
    }
}
