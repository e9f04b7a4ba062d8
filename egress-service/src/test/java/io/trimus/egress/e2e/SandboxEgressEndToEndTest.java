package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.events.Topics;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seed's egress promise, attacked from inside real containers: a sandbox started by the real adapter service
 * on {@code trimus-egress-allowlist} resolves only its company's allow-listed names through this resolver;
 * everything else is NXDOMAIN, never reaches the upstream, and becomes an anomaly an admin can read.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class SandboxEgressEndToEndTest {
    private static final ObjectMapper JSON = SandboxRuns.JSON;
    private static final String ALLOWED = "api.allowed.trimus.test";
    private static final String ALLOWED_IP = "198.51.100.7";

    private static TestUpstreamDns upstream;
    private static ServiceProcess adapter;
    private static KafkaCompanion kafka;
    private static String image;
    /**
     * TRIMUS_ENCRYPTION_KEY of the adapter service under test, the deployment's: run requests carry secrets sealed
     * with it, and its sandbox registrations present the service credential derived from it.
     */
    private static final String ENCRYPTION_KEY = EgressNetworkResource.ENCRYPTION_KEY;
    private static final String API_KEY = "sk-ant-e2e-" + UUID.randomUUID();

    @BeforeAll
    static void startAdapterAndUpstream() {
        upstream = new TestUpstreamDns().a(ALLOWED, ALLOWED_IP).a("denied.trimus.test", "198.51.100.66")
                .startReserved();
        image = TestImages.busybox();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    /** The real adapter service the end-to-end classes share, pointed at this egress-service. */
    private void startAdapter() {
        if (adapter == null) {
            adapter = SandboxRuns.sharedAdapter(egressService);
        }
    }

    @AfterAll
    static void stop() {
        if (upstream != null) {
            upstream.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @TestHTTPResource("/")
    URI egressService;

    @Test
    void aSandboxResolvesOnlyItsCompanysNamesAndEveryDenialBecomesAnAnomaly() throws Exception {
        startAdapter();
        UUID company = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        SandboxRuns.allow(company, "*.allowed.trimus.test");
        SandboxRuns.allow(other, "other.trimus.test");

        // the very first packet of the sandbox is this lookup: it must already be attributed (no REFUSED race)
        JsonNode end = runInSandbox(company, "nslookup " + ALLOWED + "; echo rc=$?; "
                + "nslookup denied.trimus.test; echo rc=$?");
        String output = end.path("output").asText();
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        // steered to the egress proxy on the gateway: the real address is never handed out, nor asked for
        assertThat(SandboxRuns.resolvedTo(output, ALLOWED, EgressNetworkResource.GATEWAY)).as(output).isTrue();
        assertThat(output).contains("NXDOMAIN").doesNotContain("REFUSED").doesNotContain(ALLOWED_IP);
        assertThat(upstream.namesSeen()).doesNotContain(ALLOWED).doesNotContain("denied.trimus.test");

        Instant finished = Instant.parse(end.get("occurred_at").asText());
        JsonNode anomaly = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> SandboxRuns.anomaly(company, "denied.trimus.test"), Optional::isPresent).orElseThrow();
        assertThat(anomaly.get("reason").asText()).isEqualTo("not_allowlisted");
        assertThat(anomaly.get("run_id").asText()).isEqualTo(end.get("run_id").asText());
        assertThat(anomaly.get("agent_id").asText()).isEqualTo(end.get("agent_id").asText());
        assertThat(anomaly.get("company_id").asText()).isEqualTo(company.toString());
        assertThat(Duration.between(finished, Instant.now())).isLessThan(Duration.ofSeconds(30));

        // another company's sandbox asking for the first company's name gets NXDOMAIN, and it is never forwarded
        upstream.clearQueries();
        JsonNode foreign = runInSandbox(other, "nslookup " + ALLOWED + "; echo rc=$?");
        assertThat(foreign.get("output").asText()).contains("NXDOMAIN").doesNotContain(ALLOWED_IP);
        assertThat(upstream.namesSeen()).doesNotContain(ALLOWED);
        await().atMost(Duration.ofSeconds(30)).until(() -> SandboxRuns.anomaly(other, ALLOWED).isPresent());
    }

    @Test
    void aSandboxOfAnAgentWithItsOwnListResolvesOnlyWhatBothListsAllow() throws Exception {
        startAdapter();
        UUID company = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        String narrowed = "narrowed.allowed.trimus.test";
        String agentOnly = "agent-only.trimus.test";
        SandboxRuns.allow(company, "*.allowed.trimus.test");
        io.restassured.RestAssured.given().contentType(io.restassured.http.ContentType.JSON)
                .body(Map.of("entries", java.util.List.of(ALLOWED, agentOnly)))
                .put("/api/companies/{c}/agents/{a}/egress/allowlist", company, agent).then().statusCode(200);
        UUID run = UUID.randomUUID();
        ObjectNode request = SandboxRuns.sandboxRequest(run, company, image, "nslookup " + ALLOWED + "; echo rc=$?; "
                + "nslookup " + narrowed + "; echo rc=$?; nslookup " + agentOnly + "; echo rc=$?", 60);
        request.put("agent_id", agent.toString());

        JsonNode end = publishAndAwait(run, request);
        String output = end.path("output").asText();

        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        assertThat(SandboxRuns.resolvedTo(output, ALLOWED, EgressNetworkResource.GATEWAY)).as(output).isTrue();
        assertThat(SandboxRuns.resolvedTo(output, narrowed, EgressNetworkResource.GATEWAY)).as(output).isFalse();
        assertThat(output).contains("NXDOMAIN");
        assertThat(upstream.namesSeen()).doesNotContain(narrowed).doesNotContain(agentOnly);
        JsonNode byAgent = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> SandboxRuns.anomaly(company, narrowed), Optional::isPresent).orElseThrow();
        assertThat(byAgent.get("reason").asText()).isEqualTo("agent_not_allowlisted");
        assertThat(byAgent.get("agent_id").asText()).isEqualTo(agent.toString());
        JsonNode byCompany = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> SandboxRuns.anomaly(company, agentOnly), Optional::isPresent).orElseThrow();
        assertThat(byCompany.get("reason").asText()).as("an agent entry the company does not allow opens nothing")
                .isEqualTo("not_allowlisted");
    }

    @Test
    void aClaudeSandboxResolvesItsAllowListedNameGetsNxdomainForTheRestAndKeepsItsRequestedFlags() throws Exception {
        startAdapter();
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, ALLOWED);
        UUID run = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        var request = JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", run.toString())
                .put("company_id", company.toString()).put("agent_id", agent.toString())
                .put("adapter_type", "claude_sandbox").put("requested_at", Instant.now().toString())
                .put("input", "@lookup " + ALLOWED + "\n@lookup cli-exfil.trimus.test");
        request.set("adapter_config", JSON.valueToTree(Map.of("image", TestImages.cliStandIn(),
                "dangerously_skip_permissions", true, "timeout_sec", 60)));
        request.set("secrets", JSON.valueToTree(new DispatchSecrets(EncryptionKey.parse(ENCRYPTION_KEY).dispatchKey())
                .seal(company, agent, run, Map.of("ANTHROPIC_API_KEY", API_KEY))));

        JsonNode end = publishAndAwait(run, request);
        String output = end.path("output").asText();

        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        assertThat(output).contains("lookup " + ALLOWED + " -> " + EgressNetworkResource.GATEWAY)
                .contains("lookup cli-exfil.trimus.test -> NXDOMAIN")
                .as("the guardrail is off in this adapter").contains("=--dangerously-skip-permissions\n")
                .contains("env:ANTHROPIC_API_KEY=[REDACTED]").doesNotContain(API_KEY);
        assertThat(upstream.namesSeen()).doesNotContain("cli-exfil.trimus.test");
        JsonNode anomaly = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> SandboxRuns.anomaly(company, "cli-exfil.trimus.test"), Optional::isPresent).orElseThrow();
        assertThat(anomaly.get("run_id").asText()).isEqualTo(run.toString());
        assertThat(anomaly.get("reason").asText()).isEqualTo("not_allowlisted");
        assertThat(java.nio.file.Files.readString(adapter.logFile())).doesNotContain(API_KEY);
    }

    /** Publishes a run request for a docker agent on the egress network and waits for its terminal status. */
    private JsonNode runInSandbox(UUID company, String script) {
        UUID run = UUID.randomUUID();
        return publishAndAwait(run, SandboxRuns.sandboxRequest(run, company, image, script, 60));
    }

    private static JsonNode publishAndAwait(UUID run, ObjectNode request) {
        return SandboxRuns.publishAndAwait(kafka, Topics.RUN_REQUESTED, run, request, Duration.ofSeconds(120));
    }
}
