package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.proxy.TestPki;
import io.trimus.events.Topics;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A running sandbox loses a host removed from its company's allowlist within 2 s (issue 31, "live everywhere"): a
 * real sandbox started by the real adapter service holds two streaming HTTPS responses from an "outside" host served
 * by this JVM, one steered (443) and one through {@code HTTPS_PROXY}; the host is removed through the API while both
 * stream; the outside host sees both connections end within 2 s of the API's answer, and the sandbox's next lookup
 * and request to the host fail. Each closed connection is an anomaly {@code proxy_not_allowlisted}.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class LivePolicyEndToEndTest {
    private static final Logger LOG = Logger.getLogger(LivePolicyEndToEndTest.class);
    private static final String LIVE = "stream.live.trimus.test";
    private static final String KEPT = "kept.live.trimus.test";
    private static final String OUTSIDE = EgressNetworkResource.OUTSIDE_GATEWAY;
    private static final String PROXY = "http://" + EgressNetworkResource.GATEWAY + ":"
            + EgressNetworkResource.PROXY_PORT;
    private static final Duration BUDGET = Duration.ofSeconds(2);

    private static Vertx vertx;
    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static String tools;
    /** Per stream (its path), when its connection ended at the outside host (nanoTime). */
    private static final Map<String, Long> streamEnded = new ConcurrentHashMap<>();
    private static final Map<String, Long> streamStarted = new ConcurrentHashMap<>();

    @TestHTTPResource("/")
    URI egressService;

    @BeforeAll
    static void startOutside() throws Exception {
        tools = TestImages.httpTools(DockerClients.local());
        EgressNetworkResource.ensureOutsideNetwork(DockerClients.local());
        TestPki outsideCa = TestPki.open(Path.of(ConfigProvider.getConfig()
                .getValue(EgressNetworkResource.OUTSIDE_PKI_KEY, String.class)));
        vertx = Vertx.vertx();
        vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(KeyCertOptions.wrap(outsideCa.leaf(LIVE))))
                .requestHandler(LivePolicyEndToEndTest::stream)
                .listen(443, OUTSIDE).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        upstream = new TestUpstreamDns().a(LIVE, OUTSIDE).a(KEPT, OUTSIDE).startReserved();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    /** A response that never ends on its own: a line every 200 ms; when its connection ends is noted. */
    private static void stream(HttpServerRequest request) {
        String path = request.path();
        streamStarted.put(path, System.nanoTime());
        request.response().setChunked(true).write("started\n");
        long timer = vertx.setPeriodic(200, t -> request.response().write("tick\n"));
        request.connection().closeHandler(closed -> {
            vertx.cancelTimer(timer);
            streamEnded.putIfAbsent(path, System.nanoTime());
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (upstream != null) {
            upstream.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aHostRemovedFromTheListIsLostByTheRunningSandboxWithinTwoSeconds() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, LIVE, KEPT);
        String c = "curl -skN --max-time 60 ";
        String script = ""
                + "(" + c + "--noproxy '*' https://" + LIVE + "/steered > /tmp/steered; echo \"steered_exit=$?\""
                + " > /tmp/s1) & (" + c + "-x " + PROXY + " https://" + LIVE + "/explicit > /tmp/explicit;"
                + " echo \"explicit_exit=$?\" > /tmp/s2) & wait; cat /tmp/s1 /tmp/s2; "
                + "echo \"steered_lines=$(wc -l < /tmp/steered)\"; "
                + "echo \"after=$(curl -sk --max-time 5 --noproxy '*' -o /dev/null -w '%{http_code}' https://" + LIVE
                + "/after; echo \" exit=$?\")\"; "
                + "echo \"lookup=$(nslookup " + LIVE + " >/dev/null 2>&1 && echo resolved || echo refused)\"";
        UUID run = UUID.randomUUID();
        SandboxRuns.sharedAdapter(egressService);
        CompletableFuture<JsonNode> end = CompletableFuture.supplyAsync(() -> SandboxRuns.publishAndAwait(kafka,
                List.of(new ProducerRecord<>(Topics.RUN_REQUESTED, run.toString(),
                        SandboxRuns.sandboxRequest(run, company, tools, script, 120).toString())),
                Duration.ofSeconds(180)).get(run));

        await().atMost(Duration.ofSeconds(120)).until(() -> streamStarted.containsKey("/steered")
                && streamStarted.containsKey("/explicit") || end.isDone());
        assertThat(end).as("the run ended before both streams began: " + (end.isDone() ? end.join() : ""))
                .isNotDone();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(streamEnded).as("both streams are still open").isEmpty());

        SandboxRuns.allow(company, KEPT);
        long removed = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> streamEnded.size() == 2);
        for (String path : List.of("/steered", "/explicit")) {
            long took = TimeUnit.NANOSECONDS.toMillis(streamEnded.get(path) - removed);
            LOG.infof("the %s stream ended at the outside host %d ms after the allowlist PUT answered", path, took);
            assertThat(took).as(path + " ended within " + BUDGET).isLessThan(BUDGET.toMillis());
        }

        JsonNode status = end.get(180, TimeUnit.SECONDS);
        String output = status.path("output").asText();
        assertThat(status.path("status").asText()).as(output).isEqualTo("SUCCEEDED");
        assertThat(output).as(output).doesNotContain("steered_exit=0", "explicit_exit=0", "after=200")
                .contains("lookup=refused");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(SandboxRuns.anomalies(company, LIVE))
                .extracting(a -> a.path("reason").asText()).contains("proxy_not_allowlisted"));
    }
}
