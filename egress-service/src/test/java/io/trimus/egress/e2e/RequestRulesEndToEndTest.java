package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.proxy.TestPki;
import io.trimus.events.Topics;
import io.trimus.testing.DockerClients;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Request rules end to end: a real sandbox started by the real adapter service, on the egress network, reaches an
 * "outside" HTTPS host and a plain-HTTP host served from this JVM, both listed with methods and path prefixes. With
 * curl inside the sandbox (trusting the egress CA only through the variables the adapter sets): an allowed method and
 * path gets the host's 200; another method, another path, a dot-segment traversal and an encoded slash get the
 * proxy's JSON 403 and never reach the host; on one kept-alive connection a refused request between two allowed ones
 * is checked and the connection goes on; a refused request with a 2 MB body (Expect: 100-continue) is answered;
 * HTTP/2 is negotiated down to HTTP/1.1; plain HTTP (steered and through the
 * explicit proxy) is checked the same way; anomalies name method and path. A second company in report mode gets the
 * same requests through, each recorded.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class RequestRulesEndToEndTest {
    private static final String RULED = "api.rules.trimus.test";
    private static final String PLAIN = "plain.rules.trimus.test";
    private static final String OUTSIDE = EgressNetworkResource.OUTSIDE_GATEWAY;
    private static final String PROXY = "http://" + EgressNetworkResource.GATEWAY + ":"
            + EgressNetworkResource.PROXY_PORT;

    private static Vertx vertx;
    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static ServiceProcess adapter;
    private static String tools;
    /** Every request the outside hosts received: method, host and path as sent. */
    private static final List<String> received = new CopyOnWriteArrayList<>();

    @TestHTTPResource("/")
    URI egressService;

    @BeforeAll
    static void startOutside() throws Exception {
        tools = TestImages.httpTools(DockerClients.local());
        EgressNetworkResource.ensureOutsideNetwork(DockerClients.local());
        TestPki outsideCa = TestPki.open(Path.of(ConfigProvider.getConfig()
                .getValue(EgressNetworkResource.OUTSIDE_PKI_KEY, String.class)));
        vertx = Vertx.vertx();
        HttpServer https = vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(KeyCertOptions.wrap(outsideCa.leaf(RULED))))
                .requestHandler(RequestRulesEndToEndTest::answer);
        https.listen(443, OUTSIDE).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.createHttpServer().requestHandler(RequestRulesEndToEndTest::answer)
                .listen(80, OUTSIDE).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        upstream = new TestUpstreamDns().a(RULED, OUTSIDE).a(PLAIN, OUTSIDE).startReserved();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    private static void answer(HttpServerRequest request) {
        received.add(request.method().name() + " " + request.authority().host() + request.uri());
        request.response().end("ok\n");
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
    void everyRequestToAHostWithRulesIsCheckedAndARefusalSaysWhatWouldAllowIt() throws Throwable {
        UUID enforced = UUID.randomUUID();
        UUID reported = UUID.randomUUID();
        for (UUID company : List.of(enforced, reported)) {
            given().contentType(ContentType.JSON).body(Map.of("entries", List.of(
                            Map.of("host", RULED, "methods", List.of("GET", "HEAD"), "paths", List.of("/repos/acme/")),
                            Map.of("host", PLAIN, "ports", List.of(80), "methods", List.of("GET"),
                                    "paths", List.of("/repos/acme/")))))
                    .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
        }
        given().contentType(ContentType.JSON).body(Map.of("mode", "report"))
                .put("/api/companies/{c}/egress/policy", reported).then().statusCode(200);
        String c = "curl -s --max-time 10 --noproxy '*' ";
        String code = "-o /dev/null -w '%{http_code}'";
        String script = ""
                + "echo \"allowed=$(" + c + code + " https://" + RULED + "/repos/acme/app)\"; "
                + "echo \"method=$(" + c + "-o /tmp/method -w '%{http_code} %{content_type}' -X DELETE https://"
                + RULED + "/repos/acme/app)\"; "
                + "echo \"method_body=$(cat /tmp/method)\"; "
                + "echo \"path=$(" + c + code + " https://" + RULED + "/repos/evil/app)\"; "
                + "echo \"traversal=$(" + c + code + " --path-as-is https://" + RULED + "/repos/acme/../evil/app)\"; "
                + "echo \"encoded=$(" + c + code + " https://" + RULED + "/repos/acme%2F..%2Fevil)\"; "
                + "echo \"sibling=$(" + c + code + " https://" + RULED + "/repos/acmeX/app)\"; "
                // one connection, three requests: allowed, refused, allowed again (num_connects 0: reused)
                + c + "-w 'keepalive=%{http_code}/%{num_connects}\\n' -o /dev/null -o /dev/null -o /dev/null"
                + " https://" + RULED + "/repos/acme/one https://" + RULED + "/repos/evil/two https://" + RULED
                + "/repos/acme/three; "
                // a refused request with a body (2 MB, Expect: 100-continue): answered, the connection closed
                + "echo \"body=$(head -c 2000000 /dev/zero | " + c + code + " -X POST --data-binary @- https://"
                + RULED + "/repos/acme/upload)\"; "
                + "echo \"explicit=$(curl -s --max-time 10 -x " + PROXY + " " + code + " -X POST https://" + RULED
                + "/repos/acme/app)\"; "
                + "echo \"h2=$(" + c + "--http2 -o /dev/null -w '%{http_code}/%{http_version}' https://" + RULED
                + "/repos/acme/h2)\"; "
                + "echo \"plain_ok=$(" + c + code + " http://" + PLAIN + "/repos/acme/x)\"; "
                + "echo \"plain_method=$(" + c + code + " -X POST http://" + PLAIN + "/repos/acme/post)\"; "
                + "echo \"plain_explicit=$(curl -s --max-time 10 -x " + PROXY + " " + code + " http://" + PLAIN
                + "/other)\"";
        UUID enforcedRun = UUID.randomUUID();
        UUID reportedRun = UUID.randomUUID();
        startAdapter();
        Map<UUID, JsonNode> ends = SandboxRuns.publishAndAwait(kafka, List.of(
                new ProducerRecord<>(Topics.RUN_REQUESTED, enforcedRun.toString(),
                        SandboxRuns.sandboxRequest(enforcedRun, enforced, tools, script, 120).toString()),
                new ProducerRecord<>(Topics.RUN_REQUESTED, reportedRun.toString(),
                        SandboxRuns.sandboxRequest(reportedRun, reported, tools, script, 120).toString())),
                Duration.ofSeconds(240));

        String output = ends.get(enforcedRun).path("output").asText();
        assertThat(ends.get(enforcedRun).path("status").asText()).as(output).isEqualTo("SUCCEEDED");
        assertThat(output).as(output).contains("allowed=200", "method=403 application/json", "path=403",
                "traversal=403", "encoded=403", "sibling=403", "body=403", "explicit=403", "h2=200/1.1", "plain_ok=200",
                "plain_method=403", "plain_explicit=403")
                .contains("keepalive=200/1", "keepalive=403/0", "keepalive=200/0");
        JsonNode body = SandboxRuns.JSON.readTree(output.substring(output.indexOf("method_body=") + 12,
                output.indexOf('\n', output.indexOf("method_body="))));
        assertThat(body.path("error").asText()).isEqualTo("egress_denied");
        assertThat(body.path("host").asText()).isEqualTo(RULED);
        assertThat(body.path("method").asText()).isEqualTo("DELETE");
        assertThat(body.path("path").asText()).isEqualTo("/repos/acme/app");
        assertThat(body.path("reason").asText()).isEqualTo("method_not_allowed");
        assertThat(body.path("rule_hint").toString()).isEqualTo("{\"host\":\"" + RULED
                + "\",\"methods\":[\"DELETE\"],\"paths\":[\"/repos/acme/app\"]}");

        String reportOutput = ends.get(reportedRun).path("output").asText();
        assertThat(reportOutput).as(reportOutput).contains("allowed=200", "method=200", "path=200",
                "traversal=200", "body=200", "explicit=200", "plain_method=200", "keepalive=200/1", "keepalive=200/0");

        assertThat(received).as("nothing refused in enforce mode reached a host; report mode let it through")
                .containsOnlyOnce("DELETE " + RULED + "/repos/acme/app", "POST " + PLAIN + "/repos/acme/post",
                        "GET " + RULED + "/repos/evil/two")
                .contains("GET " + RULED + "/repos/acme/app", "GET " + RULED + "/repos/acme/three",
                        "GET " + PLAIN + "/repos/acme/x");
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            List<JsonNode> denied = SandboxRuns.anomalies(enforced, RULED).stream()
                    .filter(a -> a.path("reason").asText().equals("proxy_request_denied")).toList();
            assertThat(denied).extracting(a -> a.path("method").asText() + " " + a.path("path").asText()
                            + " " + a.path("enforced").asBoolean())
                    .contains("DELETE /repos/acme/app true", "GET /repos/evil/app true", "GET /repos/evil/two true",
                            "GET /repos/acme%2F..%2Fevil true", "POST /repos/acme/app true");
            assertThat(SandboxRuns.anomalies(enforced, PLAIN)).extracting(a -> a.path("method").asText() + " "
                    + a.path("path").asText()).contains("POST /repos/acme/post", "GET /other");
            assertThat(SandboxRuns.anomalies(reported, RULED)).extracting(a -> a.path("reason").asText() + " "
                            + a.path("method").asText() + " " + a.path("path").asText() + " "
                            + a.path("enforced").asBoolean())
                    .contains("proxy_request_denied DELETE /repos/acme/app false");
        });
    }

    /** The real adapter service the end-to-end classes share. */
    private void startAdapter() {
        if (adapter == null) {
            adapter = SandboxRuns.sharedAdapter(egressService);
        }
    }
}
