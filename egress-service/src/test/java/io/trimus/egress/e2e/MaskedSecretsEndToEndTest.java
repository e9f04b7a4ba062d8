package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.DnsServerLifecycle;
import io.trimus.egress.dns.ResolverRestart;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.proxy.ProxyLifecycle;
import io.trimus.egress.proxy.TestPki;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.replica.SandboxRegistryLoader;
import io.trimus.events.Topics;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.DockerClients;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Masked secrets end to end: the real adapter service starts a real sandbox on the egress network with a masked
 * GitHub-style token in its environment, the real egress-service (this application) holds the masks and swaps them,
 * and an "outside" HTTPS host served from this JVM on the outside network (its certificate from a private CA the proxy
 * trusts upstream) records every credential it receives. From inside the sandbox, with curl and openssl trusting the
 * egress CA only through the variables the adapter sets: the sandbox holds only the surrogate; the scoped host gets
 * the real value (steered and through HTTPS_PROXY, in Bearer and Basic credentials) and never the sandbox's own key;
 * a surrogate sent to an allow-listed unscoped host is refused with its anomaly; a stream arrives; output shows
 * {@code [MASKED:NAME]}; and after egress-service restarts mid-run (its in-memory masks gone) the secret works again
 * for the rest of the run with nothing unswapped sent meanwhile.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class MaskedSecretsEndToEndTest {
    private static final String SCOPED = "api.masked.trimus.test";
    private static final String UNSCOPED = "plain.masked.trimus.test";
    /** A name an absolute-form target inside the scoped host's TLS points at: never on any list. */
    private static final String ELSEWHERE = "elsewhere.masked.trimus.test";
    private static final String OUTSIDE = EgressNetworkResource.OUTSIDE_GATEWAY;
    private static final String PROXY = "http://" + EgressNetworkResource.GATEWAY + ":"
            + EgressNetworkResource.PROXY_PORT;
    private static final String SECRET = "GITHUB_TOKEN";
    /** The random part of the real value, which the sandbox greps for: it must never find it. */
    private static final String REAL_PART = SandboxRuns.randomAlphanumeric(36);
    private static final String REAL = "ghp_" + REAL_PART;

    private static Vertx vertx;
    private static HttpServer https;
    private static HttpServer http;
    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static ServiceProcess adapter;
    private static String tools;
    /** Every Authorization header the scoped host received, by path ({@code <none>} when absent). */
    private static final List<String> received = new CopyOnWriteArrayList<>();
    private static final AtomicBoolean go = new AtomicBoolean();

    @TestHTTPResource("/")
    URI egressService;

    @Inject
    DnsServerLifecycle resolver;
    @Inject
    ProxyLifecycle proxy;
    @Inject
    SandboxRegistry registry;
    @Inject
    SandboxRegistryLoader loader;
    @Inject
    MaskedSecrets masked;

    @BeforeAll
    static void startOutside() throws Exception {
        tools = TestImages.httpTools(DockerClients.local());
        EgressNetworkResource.ensureOutsideNetwork(DockerClients.local());
        TestPki outsideCa = TestPki.open(Path.of(ConfigProvider.getConfig()
                .getValue(EgressNetworkResource.OUTSIDE_PKI_KEY, String.class)));
        vertx = Vertx.vertx();
        https = vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(KeyCertOptions.wrap(outsideCa.leaf(SCOPED, UNSCOPED))))
                .requestHandler(MaskedSecretsEndToEndTest::scoped)
                .listen(443, OUTSIDE).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        http = vertx.createHttpServer()
                .requestHandler(request -> {
                    received.add(request.path() + " " + authorization(request));
                    request.response().end(go.get() ? "go" : "wait");
                })
                .listen(80, OUTSIDE).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        upstream = new TestUpstreamDns().a(SCOPED, OUTSIDE).a(UNSCOPED, OUTSIDE).startReserved();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    /**
     * The scoped host, as unhelpful as real ones can be: it answers TRACE with the request it received, and
     * {@code /reflect} with the credential it got, in a header and in a chunked body that cuts it in two.
     */
    private static void scoped(HttpServerRequest request) {
        received.add(request.uri() + " " + authorization(request));
        if (request.method() == HttpMethod.TRACE) {
            StringBuilder echo = new StringBuilder("TRACE " + request.uri() + " HTTP/1.1\r\n");
            request.headers().forEach(h -> echo.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n"));
            request.response().putHeader("content-type", "message/http").end(echo.toString());
            return;
        }
        if (request.path().equals("/reflect")) {
            String credential = authorization(request);
            int half = credential.length() / 2 + 2;
            request.response().setChunked(true).putHeader("X-Echo", credential)
                    .write("echo=" + credential.substring(0, half));
            vertx.setTimer(100, t -> request.response().end(credential.substring(half) + "\n"));
            return;
        }
        if (request.path().equals("/stream")) {
            request.response().setChunked(true).putHeader("content-type", "text/event-stream").write("data: first\n\n");
            vertx.setTimer(300, t -> request.response().end("data: second\n\n"));
            return;
        }
        request.response().end("ok\n");
    }

    private static String authorization(HttpServerRequest request) {
        String value = request.getHeader("Authorization");
        return value == null ? "<none>" : value;
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
    void theSandboxHoldsASurrogateAndOnlyTheScopedHostGetsTheValueAlsoAcrossARestart() throws Throwable {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, SCOPED, UNSCOPED);
        String curl = "curl -s -o /dev/null --max-time 10 -w ";
        String script = ""
                + "echo \"env_real=$(env | grep -c " + REAL_PART + ")\"; "
                + "echo \"proc_real=$(tr '\\0' '\\n' < /proc/1/environ | grep -c " + REAL_PART + ")\"; "
                + "echo \"files_real=$(grep -rl " + REAL_PART + " /etc /tmp /root /home 2>/dev/null | wc -l)\"; "
                + "echo \"shape=${#GH_TOKEN}:${GH_TOKEN%%_*}\"; "
                + "echo \"token=$GH_TOKEN\"; "
                + "echo \"ca=$CURL_CA_BUNDLE $SSL_CERT_FILE $NODE_EXTRA_CA_CERTS\"; "
                + curl + "'steered=%{http_code}\\n' --noproxy '*' https://" + SCOPED + "/steered"
                + " -H \"Authorization: Bearer $GH_TOKEN\"; "
                + curl + "'explicit=%{http_code}\\n' -x " + PROXY + " https://" + SCOPED + "/basic"
                + " -u \"x-access-token:$GH_TOKEN\"; "
                + curl + "'own=%{http_code}\\n' --noproxy '*' https://" + SCOPED + "/own"
                + " -H 'Authorization: Bearer ghp_attackersOwnKey000000000000000000'; "
                + curl + "'leak=%{http_code}\\n' --noproxy '*' http://" + UNSCOPED + "/leak"
                + " -H \"Authorization: Bearer $GH_TOKEN\"; "
                + "echo \"stream=$(curl -sN --max-time 10 --noproxy '*' https://" + SCOPED + "/stream | tr -d '\\n')\"; "
                // s_client repeats the verify line for each TLS 1.3 session ticket that arrives in time: count one
                + "echo \"openssl=$(echo | openssl s_client -connect " + SCOPED + ":443 -servername " + SCOPED
                + " -verify_return_error 2>&1 | grep -m1 -c 'Verify return code: 0')\"; "
                // a host that echoes: TRACE, an absolute-form target naming another authority, a reflected credential
                + "echo \"trace=$(curl -s -o /tmp/trace -w '%{http_code}' --max-time 10 --noproxy '*' -X TRACE https://"
                + SCOPED + "/trace -H \"Authorization: Bearer $GH_TOKEN\")\"; "
                + curl + "'absolute=%{http_code}\\n' --noproxy '*' --request-target https://" + ELSEWHERE + "/steal"
                + " https://" + SCOPED + "/ -H \"Authorization: Bearer $GH_TOKEN\"; "
                + "curl -s -D /tmp/reflect.head -o /tmp/reflect.body --max-time 10 --noproxy '*' https://" + SCOPED
                + "/reflect -H \"Authorization: Bearer $GH_TOKEN\"; "
                + "echo \"reflect_header=$(grep -i '^x-echo' /tmp/reflect.head | tr -d '\\r')\"; "
                + "echo \"reflect_body=$(cat /tmp/reflect.body)\"; "
                // reversed, what came back escapes the output's redaction: the real value must not be in it either way
                + "echo \"echoes_reversed=$(cat /tmp/trace /tmp/reflect.head /tmp/reflect.body 2>/dev/null | rev"
                + " | tr -d '\\n\\r')\"; "
                // egress-service restarts now; the test says go once it has
                + "i=0; until [ \"$(curl -s --max-time 5 --noproxy '*' http://" + UNSCOPED + "/phase)\" = go ]"
                + " || [ $i -ge 90 ]; do i=$((i+1)); sleep 1; done; "
                + "i=0; until [ \"$(" + curl + "'%{http_code}' --noproxy '*' https://" + SCOPED + "/after"
                + " -H \"Authorization: Bearer $GH_TOKEN\")\" = 200 ] || [ $i -ge 30 ]; do i=$((i+1)); sleep 1; done;"
                + " echo after_tries=$i";
        UUID run = UUID.randomUUID();
        CompletableFuture<JsonNode> ended = CompletableFuture.supplyAsync(() -> SandboxRuns.publishAndAwait(kafka,
                Topics.RUN_REQUESTED, run, request(run, company, script), Duration.ofSeconds(240)));

        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250))
                .until(() -> received.stream().anyMatch(r -> r.startsWith("/phase ")) || ended.isDone());
        ResolverRestart.restart(resolver, proxy, registry, loader, masked);
        go.set(true);
        JsonNode end = ended.get(240, TimeUnit.SECONDS);

        String output = end.path("output").asText();
        assertThat(end.path("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        assertThat(output).as(output)
                .contains("env_real=0", "proc_real=0", "files_real=0", "shape=40:ghp",
                        "token=[MASKED:" + SECRET + "]", "steered=200", "explicit=200", "own=200", "leak=403",
                        "stream=data: firstdata: second", "openssl=1")
                .contains("ca=/etc/trimus/ca-bundle.pem /etc/trimus/ca-bundle.pem /etc/trimus/egress-ca.pem")
                .contains("trace=405", "absolute=403", "reflect_body=echo=Bearer [MASKED:" + SECRET + "]")
                .containsIgnoringCase("reflect_header=X-Echo: Bearer [MASKED:" + SECRET + "]")
                .doesNotContain(REAL_PART).doesNotContain(new StringBuilder(REAL_PART).reverse())
                .doesNotContain("after_tries=30");
        String basic = Base64.getEncoder().encodeToString(("x-access-token:" + REAL).getBytes(StandardCharsets.UTF_8));
        assertThat(received).contains("/steered Bearer " + REAL, "/basic Basic " + basic, "/own <none>",
                "/after Bearer " + REAL);
        assertThat(received).noneMatch(r -> r.startsWith("/leak"));
        assertThat(received).as("no TRACE, no target naming another authority reached the host")
                .noneMatch(r -> r.startsWith("/trace") || r.startsWith("https:") || r.contains(ELSEWHERE))
                .anyMatch(r -> r.startsWith("/reflect Bearer " + REAL));
        assertThat(received).allMatch(r -> r.endsWith("<none>") || r.contains(REAL) || r.contains(basic), "only"
                + " real values or nothing reached the outside");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(SandboxRuns.anomaly(company, UNSCOPED))
                .get().satisfies(a -> assertThat(a.get("reason").asText()).isEqualTo("masked_secret_out_of_scope")));
        JsonNode egress = SandboxRuns.JSON.readTree(io.restassured.RestAssured.given()
                .get("/api/companies/{c}/runs/{r}/egress", company, run).then().statusCode(200).extract().asString());
        assertThat(egress.path("masked_secrets").toString()).contains("\"secret\":\"" + SECRET + "\"")
                .contains("\"host\":\"" + SCOPED + "\"");
    }

    /** A docker run on the egress network whose GH_TOKEN is the company's masked GITHUB_TOKEN, scoped to SCOPED. */
    private ObjectNode request(UUID run, UUID company, String script) {
        startAdapter();
        ObjectNode request = SandboxRuns.sandboxRequest(run, company, tools, script, 200);
        ((ObjectNode) request.get("adapter_config")).set("secret_env", SandboxRuns.JSON.valueToTree(
                Map.of("GH_TOKEN", SECRET)));
        UUID agent = UUID.fromString(request.get("agent_id").asText());
        Map<String, String> sealed = new DispatchSecrets(EncryptionKey.parse(EgressNetworkResource.ENCRYPTION_KEY)
                .dispatchKey()).seal(company, agent, run, Map.of("GH_TOKEN", REAL));
        request.set("secrets", SandboxRuns.JSON.valueToTree(sealed));
        request.set("masked", SandboxRuns.JSON.valueToTree(Map.of("GH_TOKEN", Map.of("secret", SECRET,
                "hosts", List.of(SCOPED), "headers", List.of("authorization")))));
        return request;
    }

    /** The real adapter service the end-to-end classes share, re-sending masked registrations every second. */
    private void startAdapter() {
        if (adapter == null) {
            adapter = SandboxRuns.sharedAdapter(egressService);
        }
    }
}
