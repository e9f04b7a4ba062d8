package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.policy.replica.PolicyLoader;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.allowlist;
import static io.trimus.egress.api.EgressApi.putAllowlist;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AllowlistApiTest {
    private static final List<String> BEFORE = List.of("api.github.com", "*.pypi.org");

    @Inject
    AllowlistCache cache;

    @Inject
    PolicyLoader loader;

    @Test
    void entriesAreStoredNormalisedSortedAndWithoutDuplicates() {
        UUID company = UUID.randomUUID();

        putAllowlist(company, Map.of("entries", List.of("Bücher.example", "*.Example.COM.", "API.GitHub.com",
                "api.github.com.", "  pypi.org  ")))
                .statusCode(200)
                .body("company_id", equalTo(company.toString()))
                .body("entries", equalTo(List.of("*.example.com", "api.github.com", "pypi.org",
                        "xn--bcher-kva.example")));

        assertThat(allowlist(company)).containsExactly("*.example.com", "api.github.com", "pypi.org",
                "xn--bcher-kva.example");
    }

    @Test
    void theResolverSeesTheNewListAsSoonAsItIsStored() {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("*.Example.COM.", "Bücher.example"))).statusCode(200);

        assertThat(cache.entries(company)).contains(List.of("*.example.com", "xn--bcher-kva.example"));
        assertThat(cache.allows(company, "cdn.example.com")).isTrue();
        assertThat(cache.allows(company, "xn--bcher-kva.example")).isTrue();
        assertThat(cache.allows(company, "example.com")).as("a wildcard covers sub-names only").isFalse();
        assertThat(cache.allows(UUID.randomUUID(), "cdn.example.com")).as("another company").isFalse();

        putAllowlist(company, Map.of("entries", List.of("example.com"))).statusCode(200);

        assertThat(cache.allows(company, "cdn.example.com")).isFalse();
        assertThat(cache.allows(company, "example.com")).isTrue();
    }

    @Test
    void entriesWithAPortRoundTripAndOpenOnlyThatPort() {
        UUID company = UUID.randomUUID();
        Set<Integer> defaults = Set.of(443, 80);

        putAllowlist(company, Map.of("entries", List.of("Git.Example.com.:22", "*.db.example.com:05432",
                "api.example.com", "api.example.com:8443")))
                .statusCode(200)
                .body("entries", equalTo(List.of("*.db.example.com:5432", "api.example.com", "api.example.com:8443",
                        "git.example.com:22")));

        assertThat(allowlist(company)).containsExactly("*.db.example.com:5432", "api.example.com",
                "api.example.com:8443", "git.example.com:22");
        assertThat(cache.allows(company, "git.example.com")).isTrue();
        assertThat(cache.allowsPort(company, "git.example.com", 22, defaults)).isTrue();
        assertThat(cache.allowsPort(company, "git.example.com", 443, defaults)).isFalse();
        assertThat(cache.allowsPort(company, "eu.db.example.com", 5432, defaults)).isTrue();
        assertThat(cache.allowsPort(company, "api.example.com", 443, defaults)).isTrue();
        assertThat(cache.allowsPort(company, "api.example.com", 8443, defaults)).isTrue();
        assertThat(cache.namedPorts(company, "api.example.com")).containsExactly(8443);
    }

    @Test
    void theLongestEntryWithAPortIsStoredAndLoadedBack() throws Throwable {
        UUID company = UUID.randomUUID();
        String longest = "*." + "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61)
                + ":65535";

        putAllowlist(company, Map.of("entries", List.of(longest))).statusCode(200);
        cache.replace(company, List.of());
        loader.load();

        assertThat(longest).hasSize(261);
        assertThat(allowlist(company)).containsExactly(longest);
        assertThat(cache.entries(company)).contains(List.of(longest));
    }

    static Stream<Arguments> invalidPorts() {
        return Stream.of(Arguments.of("git.example.com:0"), Arguments.of("git.example.com:65536"),
                Arguments.of("git.example.com:"), Arguments.of("git.example.com:ssh"),
                Arguments.of("*.example.com:-1"));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("invalidPorts")
    void anEntryWithAnInvalidPortIsRefusedNamingItAndNothingChanges(String entry) {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, Map.of("entries", List.of("docs.example.org", entry))), "entries[1]")
                .body("value", equalTo(entry))
                .body("detail", containsString("port from 1 to 65535"));

        assertUnchanged(company);
    }

    @Test
    void anEmptyListDeniesEveryName() {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", BEFORE)).statusCode(200);

        putAllowlist(company, Map.of("entries", List.of())).statusCode(200).body("entries", empty());

        assertThat(allowlist(company)).isEmpty();
        assertThat(cache.entries(company)).contains(List.of());
        assertThat(cache.allows(company, "api.github.com")).isFalse();
    }

    @Test
    void aCompanyWithoutAListHasAnEmptyOne() {
        UUID company = UUID.randomUUID();

        given().get("/api/companies/{c}/egress/allowlist", company).then().statusCode(200)
                .body("company_id", equalTo(company.toString()))
                .body("entries", empty());
        assertThat(cache.allows(company, "api.github.com")).isFalse();
    }

    static Stream<Arguments> invalidEntries() {
        return Stream.of(
                Arguments.of(" ", " "),
                Arguments.of("*.com", "*.com"),
                Arguments.of("exa mple.com", "exa mple.com"),
                Arguments.of("-x.com", "-x.com"),
                Arguments.of("x".repeat(300) + ".com", "x".repeat(100) + "…"),
                Arguments.of("", ""),
                Arguments.of("example..com", "example..com"),
                Arguments.of("*", "*"),
                Arguments.of("a.*.example.com", "a.*.example.com"),
                Arguments.of("https://example.com/", "https://example.com/"),
                Arguments.of("exam\u0000ple.com", "exam\u0000ple.com"));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("invalidEntries")
    void anInvalidEntryIsRefusedNamingItsPlaceAndValueAndNothingChanges(String entry, String echoed) {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, Map.of("entries", List.of("docs.example.org", "Example.net", entry,
                "*.example.com"))), "entries[2]")
                .body("value", equalTo(echoed))
                .body("detail", containsString("entries[2]"));

        assertUnchanged(company);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("io.trimus.egress.allowlist.PublicSuffixWildcardTest#wildcardsOverPublicSuffixes")
    void aWildcardOverAPublicSuffixIsRefusedNamingItsPlaceAndNothingChanges(String entry, String suffix) {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, Map.of("entries", List.of("*.example.co.uk", entry))), "entries[1]")
                .body("value", equalTo(entry))
                .body("detail", containsString("public suffix " + suffix));

        assertUnchanged(company);
        assertThat(cache.allows(company, "anyone." + suffix)).isFalse();
    }

    static Stream<Arguments> entriesThatAreNoStrings() {
        return Stream.of(Arguments.of(42), Arguments.of(true), Arguments.of(List.of("example.com")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entriesThatAreNoStrings")
    void anEntryThatIsNoStringIsRefusedNamingItsPlace(Object entry) {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, Map.of("entries", List.of("example.org", entry))), "entries[1]")
                .body("detail", containsString("must be a string"));

        assertUnchanged(company);
    }

    @Test
    void anObjectEntryRoundTripsInItsOwnFormBesideStrings() {
        UUID company = UUID.randomUUID();
        Map<String, Object> ruled = Map.of("host", "API.GitHub.com", "ports", List.of(443),
                "methods", List.of("HEAD", "GET"), "paths", List.of("/user", "/repos/acme/"));
        Map<String, Object> canonical = new java.util.LinkedHashMap<>();
        canonical.put("host", "api.github.com");
        canonical.put("ports", List.of(443));
        canonical.put("methods", List.of("GET", "HEAD"));
        canonical.put("paths", List.of("/repos/acme/", "/user"));
        Set<Integer> defaults = Set.of(443, 80);

        putAllowlist(company, Map.of("entries", List.of("pypi.org", ruled))).statusCode(200)
                .body("entries", equalTo(List.of("pypi.org", canonical)));
        given().get("/api/companies/{c}/egress/allowlist", company).then().statusCode(200)
                .body("entries", equalTo(List.of("pypi.org", canonical)));

        assertThat(cache.allows(company, "api.github.com")).isTrue();
        assertThat(cache.allowsPort(company, "api.github.com", 443, defaults)).isTrue();
        assertThat(cache.allowsPort(company, "api.github.com", 80, defaults)).isFalse();
        assertThat(cache.requestRules(company, "api.github.com", 443, defaults)).hasSize(1);
        assertThat(cache.requestRules(company, "pypi.org", 443, defaults)).isEmpty();
    }

    @Test
    void theLongestObjectEntryIsStoredAndLoadedBack() throws Throwable {
        UUID company = UUID.randomUUID();
        // random letters and digits: a text that does not compress, so the row is as large stored as it is sent
        java.util.Random random = new java.util.Random(31);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        List<String> paths = IntStream.range(0, 32).mapToObj(i -> "/" + String.format("%02d", i)
                + random.ints(509, 0, alphabet.length()).mapToObj(alphabet::charAt).map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining())).toList();
        Map<String, Object> longest = Map.of("host", "*." + "a".repeat(63) + "." + "b".repeat(63) + "."
                + "c".repeat(63) + "." + "d".repeat(61), "paths", paths,
                "methods", List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
                "ports", IntStream.range(0, 32).map(i -> 65535 - i).boxed().toList());

        putAllowlist(company, Map.of("entries", List.of(longest))).statusCode(200);
        List<String> stored = cache.entries(company).orElseThrow();
        cache.replace(company, List.of());
        loader.load();

        assertThat(stored.get(0).length()).isGreaterThan(16_000);
        assertThat(cache.entries(company)).contains(stored);
    }

    static Stream<Arguments> invalidObjectEntries() {
        return Stream.of(
                Arguments.of(Map.of("name", "example.com"), "entries[1].name"),
                Arguments.of(Map.of("host", "a.example", "methods", List.of("get")), "entries[1].methods[0]"),
                Arguments.of(Map.of("host", "a.example", "paths", List.of("/ok", "/a/../b")), "entries[1].paths[1]"),
                Arguments.of(Map.of("host", "a.example", "paths", List.of("/a%2Fb")), "entries[1].paths[0]"),
                Arguments.of(Map.of("host", "a.example", "ports", List.of(70000)), "entries[1].ports[0]"),
                Arguments.of(Map.of("host", "a.example:443"), "entries[1].host"),
                Arguments.of(Map.of("host", "a.example", "paths", List.of("/" + "a".repeat(512))),
                        "entries[1].paths[0]"),
                Arguments.of(Map.of("host", "a.example", "methods", Collections.nCopies(33, "GET")),
                        "entries[1].methods"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalidObjectEntries")
    void aWrongObjectEntryIsRefusedNamingTheFieldAndNothingChanges(Object entry, String field) {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, Map.of("entries", List.of("example.org", entry))), field);

        assertUnchanged(company);
    }

    @Test
    void aNullEntryIsRefusedNamingItsPlace() {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, "{\"entries\": [\"example.org\", null]}"), "entries[1]");

        assertUnchanged(company);
    }

    @Test
    void anUnknownFieldIsRefusedAndNothingChanges() {
        UUID company = companyWithList();
        Map<String, Object> body = new HashMap<>();
        body.put("entries", List.of("example.org"));
        body.put("mode", "allow");

        assertInvalidField(putAllowlist(company, body), "mode");

        assertUnchanged(company);
    }

    @Test
    void aBodyWithoutEntriesIsRefused() {
        UUID company = companyWithList();

        assertInvalidField(putAllowlist(company, Map.of()), "entries");
        assertInvalidField(putAllowlist(company, "{\"entries\": \"example.org\"}"), "entries");
        assertInvalidField(putAllowlist(company, "null"), "body");

        assertUnchanged(company);
    }

    @Test
    void aThousandEntriesAreAcceptedAndOneMoreIsRefused() {
        UUID company = companyWithList();
        List<String> thousand = IntStream.range(0, 1000).mapToObj(i -> "host" + i + ".example.com").toList();
        List<String> tooMany = new ArrayList<>(thousand);
        tooMany.add("one-more.example.com");

        assertInvalidField(putAllowlist(company, Map.of("entries", tooMany)), "entries")
                .body("detail", containsString("1000"));
        assertUnchanged(company);

        putAllowlist(company, Map.of("entries", thousand)).statusCode(200).body("entries", hasSize(1000));
        assertThat(allowlist(company)).hasSize(1000).contains("host999.example.com");
        assertThat(cache.allows(company, "host999.example.com")).isTrue();
    }

    @Test
    void brokenJsonIsAProblem() {
        UUID company = companyWithList();

        assertProblem(putAllowlist(company, "{\"entries\": [\"example.org\""), 400)
                .body("detail", equalTo("the request body is not valid JSON"));

        assertUnchanged(company);
    }

    @Test
    void aMalformedCompanyIdNamesTheField() {
        assertInvalidField(given().get("/api/companies/{c}/egress/allowlist", "acme").then(), "company_id");
        assertInvalidField(given().contentType(ContentType.JSON).body(Map.of("entries", BEFORE))
                .put("/api/companies/{c}/egress/allowlist", "1-2-3-4-5").then(), "company_id");
    }

    @Test
    void wrongMethodMediaTypeAndPathAreProblems() {
        UUID company = UUID.randomUUID();

        assertProblem(given().contentType(ContentType.JSON).body(Map.of("entries", BEFORE))
                .post("/api/companies/{c}/egress/allowlist", company).then(), 405);
        assertProblem(given().contentType(ContentType.TEXT).body("example.com")
                .put("/api/companies/{c}/egress/allowlist", company).then(), 415);
        assertProblem(given().get("/api/companies/{c}/egress/nothing-here", company).then(), 404);
    }

    @Test
    void concurrentReplacementsLeaveTheResolverWithTheStoredList() throws Exception {
        UUID company = UUID.randomUUID();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<Integer>> puts = IntStream.range(0, 24)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> putAllowlist(company,
                            Map.of("entries", List.of("list" + i + ".example.com", "shared.example.com")))
                            .extract().statusCode(), clients))
                    .toList();
            for (CompletableFuture<Integer> put : puts) {
                assertThat(put.get()).isEqualTo(200);
            }
        } finally {
            clients.shutdownNow();
        }

        List<String> stored = allowlist(company);
        assertThat(stored).hasSize(2).contains("shared.example.com");
        assertThat(cache.entries(company).orElseThrow()).containsExactlyElementsOf(stored);
    }

    @Test
    void aLoadBringsBackEveryStoredList() throws Throwable {
        UUID company = companyWithList();
        cache.replace(company, List.of("evil.example")); // as if the cache had never seen the stored list

        loader.load();

        assertThat(cache.entries(company)).contains(List.of("*.pypi.org", "api.github.com"));
        assertThat(cache.allows(company, "evil.example")).isFalse();
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'egress-policy' }.status", equalTo("UP"));
    }

    @Test
    void openApiDocumentDescribesTheEgressApi() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths.'/api/companies/{company_id}/egress/allowlist'.put", notNullValue())
                .body("paths.'/api/companies/{company_id}/egress/anomalies'.get", notNullValue())
                .body("paths.'/api/companies/{company_id}/egress/anomalies/stream'.get",
                        notNullValue())
                .body("paths.'/internal/sandboxes/{ip}'.put", notNullValue());
    }

    private static UUID companyWithList() {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", BEFORE)).statusCode(200);
        return company;
    }

    private void assertUnchanged(UUID company) {
        List<String> expected = Arrays.asList("*.pypi.org", "api.github.com");
        assertThat(allowlist(company)).isEqualTo(expected);
        assertThat(cache.entries(company)).contains(expected);
    }
}
