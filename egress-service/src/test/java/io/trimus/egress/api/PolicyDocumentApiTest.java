package io.trimus.egress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.dns.DnsTestClient;
import io.trimus.egress.dns.QueryPolicy;
import io.trimus.egress.dns.Verdict;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.OwnerDatabase;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Type;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.restassured.RestAssured.given;
import static io.trimus.egress.api.EgressApi.policy;
import static io.trimus.egress.api.EgressApi.putAllowlist;
import static io.trimus.egress.api.EgressApi.putPolicy;
import static io.trimus.egress.api.PolicyDocuments.document;
import static io.trimus.egress.api.PolicyDocuments.export;
import static io.trimus.egress.api.PolicyDocuments.put;
import static io.trimus.egress.api.PolicyDocuments.revisions;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.trimus.testing.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.startsWith;

/**
 * Policy as code (issue 31) through the API of this running service: a company's mode, list and agents' own lists read
 * as one JSON or YAML document and replaced by one in one transaction, with the diff answered (and only answered on a
 * dry run); the same document put back changes nothing; a bad document, or a failure while writing, changes nothing;
 * a change reaches the existing list endpoints and the resolver's decisions at once. Roles, other companies and audit
 * records: {@link PolicyDocumentAccessTest}.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class PolicyDocumentApiTest {
    private static final String SANDBOX_IP = "172.30.0.92";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    @Inject
    AllowlistCache companies;
    @Inject
    AgentAllowlistCache agents;
    @Inject
    EgressModeCache modes;

    /** A company with a policy of every kind set through the single-list APIs; returns its agents, sorted. */
    private static List<UUID> aCompanyWithAPolicy(UUID company) {
        List<UUID> agentIds = new ArrayList<>(List.of(UUID.randomUUID(), UUID.randomUUID()));
        agentIds.sort(null);
        putPolicy(company, Map.of("mode", "report")).statusCode(200);
        putAllowlist(company, Map.of("entries", List.of("api.github.com", "git.example.com:22",
                Map.of("host", "registry.example.com", "methods", List.of("GET"), "paths", List.of("/v2/")))))
                .statusCode(200);
        given().contentType(ContentType.JSON).body(Map.of("entries", List.of("api.github.com")))
                .put("/api/companies/{c}/agents/{a}/egress/allowlist", company, agentIds.get(0)).then().statusCode(200);
        given().contentType(ContentType.JSON).body(Map.of("entries", List.of()))
                .put("/api/companies/{c}/agents/{a}/egress/allowlist", company, agentIds.get(1)).then().statusCode(200);
        return agentIds;
    }

    @Test
    void theWholePolicyIsReadAsOneDocumentInJsonAndInYaml() throws Exception {
        UUID company = UUID.randomUUID();
        List<UUID> agentIds = aCompanyWithAPolicy(company);

        JsonNode json = JSON.readTree(export(company, "application/json", "application/json"));
        assertThat(json.get("mode").asText()).isEqualTo("report");
        assertThat(json.get("entries").toString()).isEqualTo("[\"api.github.com\",\"git.example.com:22\","
                + "{\"host\":\"registry.example.com\",\"methods\":[\"GET\"],\"paths\":[\"/v2/\"]}]");
        assertThat(json.get("agents").fieldNames()).toIterable().containsExactly(agentIds.get(0).toString(),
                agentIds.get(1).toString());
        assertThat(json.at("/agents/" + agentIds.get(0) + "/entries").toString()).isEqualTo("[\"api.github.com\"]");
        assertThat(json.at("/agents/" + agentIds.get(1) + "/entries").isEmpty()).as("an empty own list is kept")
                .isTrue();
        assertThat(JSON.readTree(export(company, null, "application/json"))).as("JSON without Accept").isEqualTo(json);

        for (String yaml : List.of("application/yaml", "application/x-yaml", "text/yaml")) {
            String text = export(company, yaml, "application/yaml");
            assertThat(YAML.readTree(text)).as(yaml).isEqualTo(json);
        }
        assertThat(JSON.readTree(export(UUID.randomUUID(), null, "application/json")).toString())
                .as("a company that never set anything").isEqualTo("{\"mode\":\"enforce\",\"entries\":[],\"agents\":{}}");
        given().accept("text/html").get(PolicyDocuments.PATH, company).then().statusCode(406);
    }

    @Test
    void anExportedDocumentPutBackChangesNothingAtAll() throws Exception {
        UUID company = UUID.randomUUID();
        aCompanyWithAPolicy(company);
        List<Long> before = revisions(company);

        for (String type : List.of("application/json", "application/yaml")) {
            String exported = export(company, type, type);
            put(company, type, exported.getBytes(StandardCharsets.UTF_8), false).statusCode(200).contentType(ContentType.JSON)
                    .body("changed", equalTo(false)).body("applied", equalTo(false)).body("dry_run", equalTo(false))
                    .body("mode.before", equalTo("report")).body("mode.after", equalTo("report"))
                    .body("entries.added", empty()).body("entries.removed", empty()).body("agents", empty());
        }
        assertThat(revisions(company)).as("no row written, no revision, no announcement").isEqualTo(before);
    }

    @Test
    void aYamlDocumentReplacesEverythingAtOnceAndTheDiffSaysHow() throws Exception {
        UUID company = UUID.randomUUID();
        List<UUID> agentIds = aCompanyWithAPolicy(company);
        UUID kept = agentIds.get(0);
        UUID dropped = agentIds.get(1);
        UUID created = UUID.randomUUID();
        String yaml = """
                mode: enforce
                entries:
                  - api.github.com
                  - "*.pypi.org"
                  - host: registry.example.com
                    methods: [GET, HEAD]
                    paths: [/v2/]
                agents:
                  %s:
                    entries: [api.github.com, "*.pypi.org"]
                  %s:
                    entries:
                      - host: API.GitHub.com.
                        ports: [443]
                """.formatted(kept, created);

        ValidatableResponse diff = put(company, "application/yaml", yaml.getBytes(StandardCharsets.UTF_8), false)
                .statusCode(200).body("changed", equalTo(true)).body("applied", equalTo(true))
                .body("mode.before", equalTo("report")).body("mode.after", equalTo("enforce"));
        JsonNode answer = JSON.readTree(diff.extract().asByteArray());
        assertThat(answer.get("entries").toString()).isEqualTo("{\"added\":[\"*.pypi.org\",{\"host\":"
                + "\"registry.example.com\",\"methods\":[\"GET\",\"HEAD\"],\"paths\":[\"/v2/\"]}],\"removed\":["
                + "\"git.example.com:22\",{\"host\":\"registry.example.com\",\"methods\":[\"GET\"],\"paths\":"
                + "[\"/v2/\"]}]}");
        Map<String, String> changes = new LinkedHashMap<>();
        answer.get("agents").forEach(a -> changes.put(a.get("agent_id").asText(), a.get("change").asText()));
        assertThat(changes).containsOnly(Map.entry(kept.toString(), "replaced"),
                Map.entry(dropped.toString(), "dropped"), Map.entry(created.toString(), "created"));

        policy(company).statusCode(200).body("mode", equalTo("enforce"));
        given().get("/api/companies/{c}/egress/allowlist", company).then().statusCode(200)
                .body("entries.size()", equalTo(3)).body("entries", hasItems("*.pypi.org", "api.github.com"))
                .body("entries.find { it instanceof Map }.methods", equalTo(List.of("GET", "HEAD")));
        given().get("/api/companies/{c}/agents/{a}/egress/allowlist", company, dropped).then().statusCode(200)
                .body("own_list", equalTo(false));
        given().get("/api/companies/{c}/agents/{a}/egress/allowlist", company, created).then().statusCode(200)
                .body("own_list", equalTo(true)).body("entries[0].host", equalTo("api.github.com"))
                .body("entries[0].ports", equalTo(List.of(443)));

        assertThat(modes.mode(company)).isEqualTo(EgressMode.ENFORCE);
        assertThat(agents.hasOwnList(company, dropped)).isFalse();
        assertThat(decide(company, kept, "files.pypi.org")).isEqualTo(Verdict.FORWARD);
        assertThat(decide(company, created, "files.pypi.org")).as("its own list narrows the company's")
                .isEqualTo(Verdict.AGENT_NOT_ALLOWLISTED);
        assertThat(decide(company, dropped, "files.pypi.org")).as("back on the company's list alone")
                .isEqualTo(Verdict.FORWARD);
        assertThat(decide(company, dropped, "git.example.com")).as("removed, and enforced again")
                .isEqualTo(Verdict.NOT_ALLOWLISTED);
    }

    @Test
    void aDryRunAnswersTheDiffAndChangesNothing() throws Exception {
        UUID company = UUID.randomUUID();
        List<UUID> agentIds = aCompanyWithAPolicy(company);
        String before = export(company, null, "application/json");
        List<Long> revisions = revisions(company);
        Map<String, Object> wanted = document("enforce", List.of("api.github.com"), Map.of(agentIds.get(0),
                List.of()));

        byte[] dry = given().contentType(ContentType.JSON).body(wanted).queryParam("dry_run", "true")
                .put(PolicyDocuments.PATH, company).then().statusCode(200).body("dry_run", equalTo(true))
                .body("applied", equalTo(false)).body("changed", equalTo(true)).extract().asByteArray();

        assertThat(export(company, null, "application/json")).isEqualTo(before);
        assertThat(revisions(company)).isEqualTo(revisions);
        assertThat(modes.mode(company)).isEqualTo(EgressMode.REPORT);
        assertThat(agents.entries(company, agentIds.get(0))).contains(List.of("api.github.com"));

        JsonNode real = JSON.readTree(given().contentType(ContentType.JSON).body(wanted)
                .put(PolicyDocuments.PATH, company).then().statusCode(200).body("applied", equalTo(true))
                .extract().asByteArray());
        JsonNode answered = JSON.readTree(dry);
        ((com.fasterxml.jackson.databind.node.ObjectNode) answered).put("dry_run", false).put("applied", true);
        assertThat(real).as("the dry run said what the real one did").isEqualTo(answered);
        assertInvalidField(given().contentType(ContentType.JSON).body(wanted).queryParam("dry_run", "yes")
                .put(PolicyDocuments.PATH, company).then(), "dry_run");
    }

    @Test
    void aBadEntryInTheLastAgentIsNamedAndChangesNothing() throws Exception {
        UUID company = UUID.randomUUID();
        aCompanyWithAPolicy(company);
        String before = export(company, null, "application/json");
        UUID last = UUID.randomUUID();
        Map<UUID, List<?>> lists = new LinkedHashMap<>();
        lists.put(UUID.randomUUID(), List.of("a.example.com"));
        lists.put(last, List.of("a.example.com", "b.example.com", Map.of("host", "c.example.com",
                "paths", List.of("no-slash"))));
        Map<String, Object> bad = document("enforce", List.of("new.example.com"), lists);

        assertInvalidField(put(company, bad), "agents[" + last + "].entries[2].paths[0]")
                .body("detail", startsWith("agents[" + last + "].entries[2].paths[0] "));

        assertThat(export(company, null, "application/json")).isEqualTo(before);
        assertThat(modes.mode(company)).isEqualTo(EgressMode.REPORT);
        assertThat(companies.allows(company, "new.example.com")).isFalse();
    }

    @Test
    void aFailureWhileWritingTheLastAgentWritesNothing() throws Exception {
        UUID company = UUID.randomUUID();
        List<UUID> agentIds = aCompanyWithAPolicy(company);
        String before = export(company, null, "application/json");
        List<Long> revisions = revisions(company);
        UUID last = new UUID(Long.MAX_VALUE, Long.MAX_VALUE); // sorted after every random agent id
        try (Connection owner = OwnerDatabase.connect(); Statement sql = owner.createStatement()) {
            // a real failure of the database half way through: after the mode, the list and the first agents
            sql.execute("create or replace function egress.test_refuse_entry() returns trigger language plpgsql as"
                    + " $$ begin raise exception 'refused by the test'; end $$");
            sql.execute("create trigger test_refuse_entry before insert on egress.agent_allowlist_entry for each row"
                    + " when (new.agent_id = '" + last + "') execute function egress.test_refuse_entry()");
            try {
                Map<UUID, List<?>> lists = new LinkedHashMap<>();
                lists.put(agentIds.get(0), List.of("new.example.com"));
                lists.put(UUID.randomUUID(), List.of("new.example.com"));
                lists.put(last, List.of("new.example.com"));
                assertProblem(put(company, document("enforce", List.of("new.example.com"), lists)), 500);
            } finally {
                sql.execute("drop trigger test_refuse_entry on egress.agent_allowlist_entry");
            }
        }

        assertThat(export(company, null, "application/json")).isEqualTo(before);
        assertThat(revisions(company)).isEqualTo(revisions);
        assertThat(modes.mode(company)).isEqualTo(EgressMode.REPORT);
        assertThat(companies.allows(company, "new.example.com")).isFalse();
        assertThat(agents.entries(company, agentIds.get(0))).contains(List.of("api.github.com"));
        assertThat(agents.hasOwnList(company, last)).isFalse();
    }

    @Test
    void twoDocumentsAppliedAtOnceEndAsOneOfThemNeverAMix() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                UUID company = UUID.randomUUID();
                UUID x = UUID.randomUUID();
                UUID y = UUID.randomUUID();
                put(company, document("enforce", List.of("a.example.com"), Map.of(x, List.of("a.example.com"),
                        y, List.of("b.example.com")))).statusCode(200);
                // each differs from the stored policy in other lists: applied against the same state, both would land
                Map<String, Object> first = document("enforce", List.of("a.example.com"),
                        Map.of(x, List.of("a.example.com"), y, List.of("a.example.com")));
                Map<String, Object> second = document("enforce", List.of("b.example.com"),
                        Map.of(x, List.of("b.example.com"), y, List.of("b.example.com")));
                CompletableFuture<Integer> one = CompletableFuture.supplyAsync(() -> put(company, first).extract()
                        .statusCode(), clients);
                CompletableFuture<Integer> two = CompletableFuture.supplyAsync(() -> put(company, second).extract()
                        .statusCode(), clients);
                assertThat(List.of(one.get(), two.get())).containsOnly(200);

                JsonNode stored = JSON.readTree(export(company, null, "application/json"));
                assertThat(stored).as("round " + round).isIn(JSON.valueToTree(first), JSON.valueToTree(second));
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void documentsOutsideTheBoundsOrTheShapeAreRefusedNamingTheField() {
        UUID company = UUID.randomUUID();
        Map<String, Object> valid = document("enforce", List.of(), Map.of());
        Map<String, Object> unknown = new LinkedHashMap<>(valid);
        unknown.put("agent", Map.of());
        assertInvalidField(put(company, unknown), "agent");
        assertInvalidField(put(company, document("block", List.of(), Map.of())), "mode");
        assertInvalidField(put(company, Map.of("mode", "enforce", "entries", List.of())), "agents");
        assertInvalidField(put(company, document("enforce", List.of("ok.example.com", "*.com"), Map.of())),
                "entries[1]");
        assertInvalidField(put(company, Map.of("mode", "enforce", "entries", List.of(),
                "agents", Map.of("agent-7", Map.of("entries", List.of())))), "agents");
        UUID agent = UUID.randomUUID();
        assertInvalidField(put(company, Map.of("mode", "enforce", "entries", List.of(),
                "agents", Map.of(agent.toString(), Map.of("entries", List.of(), "mode", "x")))),
                "agents[" + agent + "].mode");
        assertInvalidField(put(company, Map.of("mode", "enforce", "entries", List.of(),
                "agents", Map.of(agent.toString(), List.of()))), "agents[" + agent + "]");
        Map<UUID, List<?>> tooMany = new LinkedHashMap<>();
        for (int i = 0; i <= 1000; i++) {
            tooMany.put(UUID.randomUUID(), List.of());
        }
        assertInvalidField(put(company, document("enforce", List.of(), tooMany)), "agents")
                .body("detail", containsString("1000"));
        List<String> tooManyEntries = java.util.stream.IntStream.rangeClosed(0, 1000)
                .mapToObj(i -> "h" + i + ".example.com").toList();
        assertInvalidField(put(company, document("enforce", List.of(), Map.of(agent, tooManyEntries))),
                "agents[" + agent + "].entries").body("detail", containsString("1000"));

        String duplicate = "{\"mode\": \"enforce\", \"mode\": \"report\", \"entries\": [], \"agents\": {}}";
        assertInvalidField(put(company, "application/json", duplicate.getBytes(StandardCharsets.UTF_8), false),
                "body");
        String aliases = "mode: enforce\nentries: &list [a.example.com]\nagents:\n  " + agent
                + ":\n    entries: *list\n";
        assertInvalidField(put(company, "application/yaml", aliases.getBytes(StandardCharsets.UTF_8), false), "body")
                .body("detail", containsString("aliases"));
        String duplicateYaml = "mode: enforce\nentries: []\nagents:\n  " + agent + ":\n    entries: []\n  " + agent
                + ":\n    entries: [a.example.com]\n";
        assertInvalidField(put(company, "application/yaml", duplicateYaml.getBytes(StandardCharsets.UTF_8), false),
                "body");
        String deep = "{\"mode\": " + "[".repeat(40) + "]".repeat(40) + ", \"entries\": [], \"agents\": {}}";
        assertInvalidField(put(company, "application/json", deep.getBytes(StandardCharsets.UTF_8), false), "body");
        String deepYaml = "mode: enforce\nentries: " + "[".repeat(40) + "]".repeat(40) + "\nagents: {}\n";
        assertInvalidField(put(company, "application/yaml", deepYaml.getBytes(StandardCharsets.UTF_8), false),
                "body");
        String twoDocuments = "mode: enforce\nentries: []\nagents: {}\n---\nmode: report\n";
        assertInvalidField(put(company, "text/yaml", twoDocuments.getBytes(StandardCharsets.UTF_8), false), "body");
        assertInvalidField(put(company, "application/json", "{\"mode\": ".getBytes(StandardCharsets.UTF_8), false),
                "body");
        assertInvalidField(put(company, "application/json", new byte[0], false), "body");
        byte[] huge = ("{\"mode\": \"enforce\", \"entries\": [\"" + "a".repeat(1024 * 1024) + "\"], \"agents\": {}}")
                .getBytes(StandardCharsets.UTF_8);
        assertProblem(put(company, "application/json", huge, false), 413).body("field", equalTo("body"));
        given().contentType("text/plain").body("mode: enforce").put(PolicyDocuments.PATH, company).then()
                .statusCode(415);

        assertThat(modes.mode(company)).isEqualTo(EgressMode.ENFORCE);
        assertThat(companies.entries(company)).isEmpty();
    }

    private Verdict decide(UUID company, UUID agent, String name) {
        SandboxRegistry sandboxes = new SandboxRegistry();
        sandboxes.register(new Sandbox(SANDBOX_IP, company, agent, UUID.randomUUID(), "c0ffee"));
        return new QueryPolicy(sandboxes, companies, agents, modes, () -> true)
                .decide(SANDBOX_IP, DnsTestClient.query(name, Type.A)).verdict();
    }
}
