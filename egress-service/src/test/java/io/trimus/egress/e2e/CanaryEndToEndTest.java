package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real canary: egress-service asks, the real adapter service starts the probe sandbox on the egress network, the
 * probe tries every check against the real resolver and proxy, and the result comes back. In the test stack the
 * host's side of the egress network is open (no egress-firewall), and the canary finds exactly that: bridge_route got
 * through, the canary is breached and {@code canary_breach} is raised, while everything the resolver and the proxy
 * refuse stays refused and none of the probe's own denials becomes an anomaly. With deploy/egress-firewall's rules in
 * place (as ./trimus up and compose run them) the same canary passes.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class CanaryEndToEndTest {
    private static final Logger LOG = Logger.getLogger(CanaryEndToEndTest.class);
    private static final Path FIREWALL = Path.of("..", "deploy", "egress-firewall", "egress-firewall.sh");
    private static final List<String> MUST_FAIL_THROUGH_TRIMUS = List.of("unlisted_name", "unlisted_name_via_proxy",
            "ip_literal", "ip_literal_via_proxy", "metadata", "metadata_via_proxy", "unlisted_port");

    @TestHTTPResource("/")
    URI egressService;

    private Process firewall;

    @BeforeAll
    static void images() {
        TestImages.busybox(DockerClients.local());
    }

    @AfterEach
    void liftTheFirewall() throws Exception {
        if (firewall != null && firewall.isAlive()) {
            firewall.destroy();
            firewall.waitFor(15, TimeUnit.SECONDS);
        }
    }

    @Test
    void withTheHostSideOpenTheCanaryFindsTheBridgeRouteAndNothingElse() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, "api.github.com");
        SandboxRuns.sharedAdapter(egressService);

        JsonPath canary = runCanary(company);

        assertThat(canary.getString("status")).as(canary.prettify()).isEqualTo("breached");
        assertThat(outcome(canary, "bridge_route")).as(canary.prettify()).isEqualTo("allowed");
        for (String check : MUST_FAIL_THROUGH_TRIMUS) {
            assertThat(outcome(canary, check)).as(check + " in " + canary.prettify()).isEqualTo("blocked");
        }
        assertThat(outcome(canary, "allowed_host")).as(canary.prettify()).isEqualTo("allowed");

        String id = canary.getString("id");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<JsonNode> breaches = SandboxRuns.anomalies(company, null).stream()
                    .filter(a -> a.path("reason").asText().equals("canary_breach")).toList();
            assertThat(breaches).isNotEmpty().allSatisfy(a -> {
                assertThat(a.path("run_id").asText()).isEqualTo(id);
                assertThat(a.path("qtype").asText()).isEqualTo("CANARY");
            });
        });
        assertThat(SandboxRuns.anomalies(company, null)).as("the probe's own denials are its checks, not anomalies")
                .allSatisfy(a -> assertThat(a.path("reason").asText()).isEqualTo("canary_breach"));
    }

    @Test
    void withTheEgressFirewallInPlaceTheSameCanaryPasses() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, "api.github.com");
        SandboxRuns.sharedAdapter(egressService);
        startFirewall();

        JsonPath canary = runCanary(company);

        assertThat(canary.getString("status")).as(canary.prettify()).isEqualTo("passed");
        assertThat(outcome(canary, "bridge_route")).isEqualTo("blocked");
        assertThat(canary.getString("error")).isNull();
        assertThat(SandboxRuns.anomalies(company, null)).isEmpty();
    }

    private static JsonPath runCanary(UUID company) {
        String id = given().post("/api/companies/{c}/egress/canary", company).then().statusCode(202).extract()
                .jsonPath().getString("id");
        JsonPath done = await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofSeconds(1))
                .until(() -> given().get("/api/companies/{c}/egress/canary", company).then().statusCode(200)
                        .extract().jsonPath(), s -> id.equals(s.getString("id"))
                        && !"running".equals(s.getString("status")));
        LOG.infof("canary of company %s:%n%s", company, done.prettify());
        return done;
    }

    private static String outcome(JsonPath canary, String check) {
        return canary.getString("checks.find { it.name == '" + check + "' }.outcome");
    }

    private void startFirewall() throws IOException {
        Path log = Files.createTempFile("egress-firewall", ".log");
        ProcessBuilder builder = new ProcessBuilder("sh", FIREWALL.toString(), "run").redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(firewallEnvironment());
        firewall = builder.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            ProcessBuilder check = new ProcessBuilder("sh", FIREWALL.toString(), "check").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            check.environment().putAll(firewallEnvironment());
            return check.start().waitFor() == 0;
        });
    }

    private static Map<String, String> firewallEnvironment() {
        return Map.of("TRIMUS_EGRESS_NETWORK_BRIDGE_NAME", "trimus-egress0",
                "TRIMUS_EGRESS_NETWORK_SUBNET", EgressNetworkResource.SUBNET,
                "TRIMUS_EGRESS_NETWORK_GATEWAY", EgressNetworkResource.GATEWAY,
                "TRIMUS_EGRESS_RESOLVER_IP", EgressNetworkResource.GATEWAY,
                "TRIMUS_EGRESS_PROXY_PORT", String.valueOf(EgressNetworkResource.PROXY_PORT));
    }
}
