package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.events.Topics;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.Ports;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static io.restassured.RestAssured.given;
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
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALLOWED = "api.allowed.trimus.test";
    private static final String ALLOWED_IP = "198.51.100.7";

    private static TestUpstreamDns upstream;
    private static ServiceProcess adapter;
    private static KafkaCompanion kafka;
    private static String image;
    /** TRIMUS_ENCRYPTION_KEY of the adapter service under test: run requests carry secrets sealed with it. */
    private static final String ENCRYPTION_KEY = Base64.getEncoder().encodeToString(randomBytes(32));
    private static final String API_KEY = "sk-ant-e2e-" + UUID.randomUUID();

    @BeforeAll
    static void startAdapterAndUpstream() {
        int upstreamPort = ConfigProvider.getConfig().getValue(EgressNetworkResource.UPSTREAM_PORT_KEY, Integer.class);
        upstream = new TestUpstreamDns().a(ALLOWED, ALLOWED_IP).a("denied.trimus.test", "198.51.100.66")
                .start(upstreamPort);
        image = TestImages.busybox();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    /** The real adapter service, pointed at this egress-service (whose port is known only once tests run). */
    private void startAdapter() {
        if (adapter == null) {
            adapter = ServiceProcess.start(Path.of("..", "adapter-lambda-service"), Ports.free(), Map.of(
                    "kafka.bootstrap.servers", ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class),
                    "trimus.egress.service-url", egressService.toString(),
                    "trimus.encryption-key", ENCRYPTION_KEY));
        }
    }

    @AfterAll
    static void stop() {
        if (adapter != null) {
            adapter.close();
        }
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
        allow(company, "*.allowed.trimus.test");
        allow(other, "other.trimus.test");

        // the very first packet of the sandbox is this lookup: it must already be attributed (no REFUSED race)
        JsonNode end = runInSandbox(company, "nslookup " + ALLOWED + "; echo rc=$?; "
                + "nslookup denied.trimus.test; echo rc=$?");
        String output = end.path("output").asText();
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        assertThat(output).contains(ALLOWED_IP).contains("NXDOMAIN").doesNotContain("REFUSED");
        assertThat(upstream.namesSeen()).contains(ALLOWED).doesNotContain("denied.trimus.test");

        Instant finished = Instant.parse(end.get("occurred_at").asText());
        JsonNode anomaly = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> anomaly(company, "denied.trimus.test"), Optional::isPresent).orElseThrow();
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
        await().atMost(Duration.ofSeconds(30)).until(() -> anomaly(other, ALLOWED).isPresent());
    }

    @Test
    void aClaudeSandboxResolvesItsAllowListedNameGetsNxdomainForTheRestAndKeepsItsRequestedFlags() throws Exception {
        startAdapter();
        UUID company = UUID.randomUUID();
        allow(company, ALLOWED);
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
        assertThat(output).contains("lookup " + ALLOWED + " -> " + ALLOWED_IP)
                .contains("lookup cli-exfil.trimus.test -> NXDOMAIN")
                .as("the guardrail is off in this adapter").contains("=--dangerously-skip-permissions\n")
                .contains("env:ANTHROPIC_API_KEY=[REDACTED]").doesNotContain(API_KEY);
        assertThat(upstream.namesSeen()).doesNotContain("cli-exfil.trimus.test");
        JsonNode anomaly = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> anomaly(company, "cli-exfil.trimus.test"), Optional::isPresent).orElseThrow();
        assertThat(anomaly.get("run_id").asText()).isEqualTo(run.toString());
        assertThat(anomaly.get("reason").asText()).isEqualTo("not_allowlisted");
        assertThat(java.nio.file.Files.readString(adapter.logFile())).doesNotContain(API_KEY);
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        new java.security.SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static void allow(UUID company, String... entries) {
        given().contentType(ContentType.JSON).body(Map.of("entries", List.of(entries)))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
    }

    private static Optional<JsonNode> anomaly(UUID company, String qname) throws Exception {
        String body = given().get("/api/companies/{c}/egress/anomalies?limit=50", company)
                .then().statusCode(200).extract().asString();
        for (JsonNode item : JSON.readTree(body)) {
            if (qname.equals(item.get("qname").asText())) {
                return Optional.of(item);
            }
        }
        return Optional.empty();
    }

    /** Publishes a run request for a docker agent on the egress network and waits for its terminal status. */
    private JsonNode runInSandbox(UUID company, String script) throws Exception {
        UUID run = UUID.randomUUID();
        UUID agent = UUID.randomUUID();
        var request = JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", run.toString())
                .put("company_id", company.toString()).put("agent_id", agent.toString())
                .put("adapter_type", "docker").put("requested_at", Instant.now().toString());
        request.set("adapter_config", JSON.valueToTree(Map.of("image", image, "network", EgressNetworkResource.NETWORK,
                "command", List.of("/bin/sh", "-c", script), "timeout_sec", 60)));
        return publishAndAwait(run, request);
    }

    /** Publishes a run request and waits for its terminal status. */
    private JsonNode publishAndAwait(UUID run, com.fasterxml.jackson.databind.node.ObjectNode request) {
        try (ConsumerTask<String, String> statuses = kafka.consumeStrings().fromTopics(Topics.RUN_STATUS)) {
            kafka.produceStrings().fromRecords(new ProducerRecord<>(Topics.RUN_REQUESTED, run.toString(),
                    request.toString())).awaitCompletion(Duration.ofSeconds(30));
            return await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> terminal(statuses, run), Optional::isPresent).orElseThrow();
        }
    }

    private static Optional<JsonNode> terminal(ConsumerTask<String, String> statuses, UUID run) throws Exception {
        for (var record : statuses.getRecords()) {
            if (run.toString().equals(record.key())) {
                JsonNode event = JSON.readTree(record.value());
                String status = event.get("status").asText();
                if (!status.equals("DISPATCHED") && !status.equals("RUNNING")) {
                    return Optional.of(event);
                }
            }
        }
        return Optional.empty();
    }
}
