package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.dns.DnsTestClient;
import io.trimus.egress.dns.QueryPolicy;
import io.trimus.egress.dns.Verdict;
import io.trimus.egress.feed.ListenerOptions;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.policy.replica.PolicyFeed;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.RequestDenial;
import io.trimus.egress.proxy.admission.ProxyTarget;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.OwnerDatabase;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Type;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.putAllowlist;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

/**
 * Per-agent allowlists (issue 31) through the API of this running service: the same forms and checks as a company's
 * list, stored under row-level security, narrowing the company's list for the agent's sandboxes in this replica at once
 * and in a second replica (its own caches and policy connection on the same database) within 2 s. Roles and other
 * companies: {@link AccessTableTest} (docs/access.md); audit records: {@link AuditTrailTest}.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AgentAllowlistApiTest {
    private static final String PATH = "/api/companies/{c}/agents/{a}/egress/allowlist";
    private static final Duration PROPAGATION = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SANDBOX_IP = "172.30.0.91";

    @Inject
    AgentAllowlistCache agents;
    @Inject
    AllowlistCache companies;
    @Inject
    Vertx vertx;
    @Inject
    TrimusConfig config;
    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String url;
    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;
    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    private static ValidatableResponse put(Object company, Object agent, Object body) {
        return given().contentType(ContentType.JSON).body(body).put(PATH, company, agent).then();
    }

    private static ValidatableResponse get(Object company, Object agent) {
        return given().get(PATH, company, agent).then();
    }

    private static ValidatableResponse delete(Object company, Object agent) {
        return given().delete(PATH, company, agent).then();
    }

    @Test
    void anAgentWithoutAListOfItsOwnHasTheCompanysAndOneSetIsStoredNormalisedSorted() {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        get(company, agent).statusCode(200).body("company_id", equalTo(company.toString()))
                .body("agent_id", equalTo(agent.toString())).body("own_list", equalTo(false))
                .body("entries", empty());

        put(company, agent, Map.of("entries", List.of("Bücher.example", "*.Example.COM.", "API.GitHub.com",
                "api.github.com.", "git.example.com:22")))
                .statusCode(200).body("own_list", equalTo(true))
                .body("entries", equalTo(List.of("*.example.com", "api.github.com", "git.example.com:22",
                        "xn--bcher-kva.example")));

        get(company, agent).statusCode(200).body("own_list", equalTo(true))
                .body("entries", equalTo(List.of("*.example.com", "api.github.com", "git.example.com:22",
                        "xn--bcher-kva.example")));
        assertThat(agents.entries(company, agent)).contains(List.of("*.example.com", "api.github.com",
                "git.example.com:22", "xn--bcher-kva.example"));
        get(company, UUID.randomUUID()).statusCode(200).body("own_list", equalTo(false));
        get(UUID.randomUUID(), agent).statusCode(200).body("own_list", equalTo(false));

        put(company, agent, Map.of("entries", List.of())).statusCode(200).body("own_list", equalTo(true))
                .body("entries", empty());
        assertThat(agents.hasOwnList(company, agent)).isTrue();
        assertThat(agents.allows(company, agent, "api.github.com")).as("an empty own list denies every name")
                .isFalse();

        delete(company, agent).statusCode(204);
        get(company, agent).statusCode(200).body("own_list", equalTo(false)).body("entries", empty());
        assertThat(agents.hasOwnList(company, agent)).isFalse();
        delete(company, agent).statusCode(204);
    }

    @Test
    void theNarrowingAppliesToTheAgentsSandboxesAtOnce() {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("a.example.com", "b.example.com"))).statusCode(200);
        Replica service = Replica.of(company, agent, companies, agents);
        assertThat(service.dns("a.example.com")).isEqualTo(Verdict.FORWARD);

        put(company, agent, Map.of("entries", List.of("b.example.com", "c.example.com"))).statusCode(200);

        assertThat(service.dns("a.example.com")).isEqualTo(Verdict.AGENT_NOT_ALLOWLISTED);
        assertThat(service.proxy("a.example.com")).isEqualTo(ProxyRefusal.AGENT_NOT_ALLOWLISTED);
        assertThat(service.dns("b.example.com")).isEqualTo(Verdict.FORWARD);
        assertThat(service.proxy("b.example.com")).isNull();
        assertThat(service.dns("c.example.com")).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(service.proxy("c.example.com")).isEqualTo(ProxyRefusal.NOT_ALLOWLISTED);

        putAllowlist(company, Map.of("entries", List.of("a.example.com"))).statusCode(200);
        assertThat(service.dns("b.example.com")).as("a company-wide removal reaches the agent")
                .isEqualTo(Verdict.NOT_ALLOWLISTED);

        delete(company, agent).statusCode(204);
        assertThat(service.dns("a.example.com")).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void aSecondReplicaAppliesAnAgentsListAndItsRemovalWithinTwoSeconds() {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("a.example.com", "b.example.com"))).statusCode(200);
        AllowlistCache lists = new AllowlistCache();
        AgentAllowlistCache agentLists = new AgentAllowlistCache();
        PolicyFeed feed = new PolicyFeed(vertx, ListenerOptions.of(url, user, password), lists, agentLists,
                new EgressModeCache(), config.egress().policy().checkInterval(), config.egress().policy().staleAfter());
        try {
            feed.start(WAIT).await().atMost(WAIT);
            Replica second = Replica.of(company, agent, lists, agentLists);
            assertThat(second.dns("a.example.com")).isEqualTo(Verdict.FORWARD);

            put(company, agent, Map.of("entries", List.of("b.example.com"))).statusCode(200);
            await().atMost(PROPAGATION).pollInterval(Duration.ofMillis(20)).until(() ->
                    second.dns("a.example.com") == Verdict.AGENT_NOT_ALLOWLISTED
                            && second.proxy("a.example.com") == ProxyRefusal.AGENT_NOT_ALLOWLISTED);
            assertThat(second.dns("b.example.com")).isEqualTo(Verdict.FORWARD);

            delete(company, agent).statusCode(204);
            await().atMost(PROPAGATION).pollInterval(Duration.ofMillis(20)).until(() ->
                    second.dns("a.example.com") == Verdict.FORWARD && second.proxy("a.example.com") == null);
        } finally {
            feed.stop();
        }
    }

    @Test
    void theAgentsEntriesAreCompanyRowsUnderRowLevelSecurity() throws Exception {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        put(company, agent, Map.of("entries", List.of("b.example.com"))).statusCode(200);

        try (Connection owner = OwnerDatabase.connect();
             PreparedStatement policies = owner.prepareStatement("select tablename from pg_policies"
                     + " where schemaname = 'egress' and policyname = 'company_rows'"
                     + " and tablename in ('agent_allowlist', 'agent_allowlist_entry')");
             ResultSet rows = policies.executeQuery()) {
            List<String> guarded = new ArrayList<>();
            while (rows.next()) {
                guarded.add(rows.getString(1));
            }
            assertThat(guarded).containsExactlyInAnyOrder("agent_allowlist", "agent_allowlist_entry");
        }
    }

    @Test
    void anInvalidAgentIdIsRefusedNamingTheField() {
        assertInvalidField(get(UUID.randomUUID(), "not-a-uuid"), "agent_id");
        assertInvalidField(put(UUID.randomUUID(), "not-a-uuid", Map.of("entries", List.of("a.example.com"))),
                "agent_id");
        assertInvalidField(delete(UUID.randomUUID(), "not-a-uuid"), "agent_id");
        assertInvalidField(put("nope", UUID.randomUUID(), Map.of("entries", List.of())), "company_id");
    }

    @Test
    void invalidEntriesAreRefusedAsForTheCompanyListAndNothingChanges() {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        put(company, agent, Map.of("entries", List.of("kept.example.com"))).statusCode(200);

        assertInvalidField(put(company, agent, Map.of("entries", List.of("ok.example.com", "*.com"))), "entries[1]");
        assertInvalidField(put(company, agent, Map.of("entries", List.of("ok.example.com", 42))), "entries[1]")
                .body("detail", containsString("must be a string"));
        assertInvalidField(put(company, agent, Map.of("entries", List.of("git.example.com:0"))), "entries[0]");
        assertInvalidField(put(company, agent, Map.of()), "entries");
        assertInvalidField(put(company, agent, "null"), "body");
        List<String> tooMany = IntStream.rangeClosed(0, 1000).mapToObj(i -> "h" + i + ".example.com").toList();
        assertInvalidField(put(company, agent, Map.of("entries", tooMany)), "entries")
                .body("detail", containsString("1000"));

        get(company, agent).statusCode(200).body("entries", equalTo(List.of("kept.example.com")));
        assertThat(agents.entries(company, agent)).contains(List.of("kept.example.com"));
    }

    @Test
    void objectEntriesWithRequestRulesRoundTripAndNarrowTheCompanysRules() {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of(Map.of("host", "api.github.com",
                "methods", List.of("GET", "POST"), "paths", List.of("/repos/acme/"))))).statusCode(200);
        Map<String, Object> canonical = new java.util.LinkedHashMap<>();
        canonical.put("host", "api.github.com");
        canonical.put("methods", List.of("GET"));

        put(company, agent, Map.of("entries", List.of(Map.of("host", "API.GitHub.com.", "methods", List.of("GET")))))
                .statusCode(200).body("entries", equalTo(List.of(canonical)));
        get(company, agent).statusCode(200).body("own_list", equalTo(true)).body("entries", equalTo(List.of(canonical)));

        Replica service = Replica.of(company, agent, companies, agents);
        assertThat(service.proxy("api.github.com")).isNull();
        List<List<io.trimus.egress.allowlist.RuledEntry>> rules = service.proxy.requestRules(
                new Sandbox(SANDBOX_IP, company, agent, UUID.randomUUID(), "c0ffee"), "api.github.com", 443);
        assertThat(rules).as("the company's rules, then the agent's").hasSize(2);
        assertThat(RequestDenial.checkAll(rules, "api.github.com", 443, "GET", "/repos/acme/app")).isNull();
        assertThat(RequestDenial.checkAll(rules, "api.github.com", 443, "POST", "/repos/acme/app").reason())
                .as("the company allows POST, the agent's own list does not").isEqualTo(RequestDenial.METHOD_NOT_ALLOWED);
        assertThat(RequestDenial.checkAll(rules, "api.github.com", 443, "GET", "/repos/evil/app").reason())
                .isEqualTo(RequestDenial.PATH_NOT_ALLOWED);

        assertInvalidField(put(company, agent, Map.of("entries", List.of(Map.of("host", "a.example",
                "methods", List.of("get"))))), "entries[0].methods[0]");
        get(company, agent).statusCode(200).body("entries", equalTo(List.of(canonical)));
    }

    @Test
    void theLongestObjectEntryIsStoredForAnAgentAndReplacedAgain() throws Exception {
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        java.util.Random random = new java.util.Random(31);
        String letters = "abcdefghijklmnopqrstuvwxyz0123456789";
        // incompressible paths: a b-tree key on the text itself could not hold this entry
        List<String> paths = IntStream.range(0, 32).mapToObj(i -> "/" + random.ints(511, 0, letters.length())
                .mapToObj(letters::charAt).map(String::valueOf).reduce("", String::concat)).toList();
        Map<String, Object> longest = Map.of("host", "*." + "a".repeat(63) + "." + "b".repeat(63) + "."
                        + "c".repeat(63) + "." + "d".repeat(61), "paths", paths,
                "methods", List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
                "ports", IntStream.range(0, 32).map(i -> 65535 - i).boxed().toList());

        put(company, agent, Map.of("entries", List.of(longest))).statusCode(200);
        put(company, agent, Map.of("entries", List.of(longest, "b.example.com"))).statusCode(200);

        List<String> stored = agents.entries(company, agent).orElseThrow();
        assertThat(stored).hasSize(2);
        assertThat(stored.get(1).length()).isGreaterThan(16_000);
        try (Connection owner = OwnerDatabase.connect();
             PreparedStatement select = owner.prepareStatement("select entry from egress.agent_allowlist_entry"
                     + " where company_id = ? and agent_id = ? order by entry")) {
            select.setObject(1, company);
            select.setObject(2, agent);
            List<String> rows = new ArrayList<>();
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getString(1));
                }
            }
            assertThat(rows).containsExactlyInAnyOrderElementsOf(stored);
        }
    }

    /** How a replica decides for a sandbox of {@code agent} of {@code company}: its resolver's policy and its proxy's. */
    private record Replica(QueryPolicy resolver, ProxyPolicy proxy) {
        static Replica of(UUID company, UUID agent, AllowlistCache lists, AgentAllowlistCache agentLists) {
            SandboxRegistry sandboxes = new SandboxRegistry();
            sandboxes.register(new Sandbox(SANDBOX_IP, company, agent, UUID.randomUUID(), "c0ffee"));
            return new Replica(new QueryPolicy(sandboxes, lists, agentLists, c -> io.trimus.egress.policy.EgressMode.ENFORCE,
                    () -> true), new ProxyPolicy(sandboxes, lists, agentLists,
                    c -> io.trimus.egress.policy.EgressMode.ENFORCE, () -> true, Set.of(443, 80), Set.of(443)));
        }

        Verdict dns(String name) {
            return resolver.decide(SANDBOX_IP, DnsTestClient.query(name, Type.A)).verdict();
        }

        ProxyRefusal proxy(String host) {
            return proxy.admit(SANDBOX_IP, new ProxyTarget(host, 443), true).refusal();
        }
    }
}
