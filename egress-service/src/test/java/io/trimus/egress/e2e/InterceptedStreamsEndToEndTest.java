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
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.KeyCertOptions;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a host with request rules carries besides plain requests, end to end from one real sandbox (the http-tools
 * image: curl and openssl) through the masking interceptor to an "outside" HTTPS host served from this JVM, on a
 * path the rules allow: a chunked upload arrives whole; {@code Expect: 100-continue} gets its 100 and the body
 * arrives, while a refused request with it gets the JSON 403 and never sends its body; a streamed response (the host
 * writes its second event only once the sandbox has read the first) arrives piece by piece; a WebSocket handshake is
 * switched and spliced (a hand-written handshake and a masked frame over {@code openssl s_client}: the host's echo
 * comes back), one on a refused path gets the JSON 403; an h2c upgrade is not carried (answered over HTTP/1.1).
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class InterceptedStreamsEndToEndTest {
    private static final String RULED = "streams.rules.trimus.test";
    private static final String OUTSIDE = EgressNetworkResource.OUTSIDE_GATEWAY;
    /** RFC 6455's sample key, and the accept value it must be answered with. */
    private static final String WS_KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static final String WS_ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    private static Vertx vertx;
    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static String tools;
    /** Every request the outside host received: method, path, and what it noted. */
    private static final List<String> received = new CopyOnWriteArrayList<>();
    /** Streams waiting for their sandbox to say it read the first event, by the id it sent. */
    private static final Map<String, HttpServerResponse> streams = new ConcurrentHashMap<>();

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
                        .setKeyCertOptions(KeyCertOptions.wrap(outsideCa.leaf(RULED))))
                .requestHandler(InterceptedStreamsEndToEndTest::answer)
                .listen(443, OUTSIDE).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        upstream = new TestUpstreamDns().a(RULED, OUTSIDE).startReserved();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    private static void answer(HttpServerRequest request) {
        String path = request.path();
        String line = request.method().name() + " " + path + " upgrade=" + request.getHeader("upgrade");
        switch (path) {
            case "/ok/upload" -> request.body().onSuccess(body -> {
                received.add(line + " te=" + request.getHeader("transfer-encoding") + " length=" + body.length());
                request.response().end("md5=" + md5(body));
            });
            case "/ok/stream" -> {
                received.add(line);
                HttpServerResponse response = request.response().setChunked(true)
                        .putHeader("content-type", "text/event-stream");
                response.write("data: one\n\n");
                streams.put(request.getParam("id"), response);
                // if the first event never arrives, the stream still ends, saying so
                vertx.setTimer(20_000, late -> {
                    if (streams.remove(request.getParam("id"), response)) {
                        response.end("data: late\n\n");
                    }
                });
            }
            case "/ok/seen" -> {
                HttpServerResponse stream = streams.remove(request.getParam("id"));
                received.add(line + " stream=" + (stream != null));
                if (stream != null) {
                    stream.end("data: two\n\n");
                }
                request.response().end("ok\n");
            }
            case "/ok/ws" -> request.toWebSocket().onComplete(upgraded -> {
                if (upgraded.succeeded()) {
                    echo(upgraded.result());
                } else {
                    received.add(line + " not upgraded: " + upgraded.cause());
                    request.response().setStatusCode(500).end();
                }
            });
            default -> {
                received.add(line);
                request.response().end("ok\n");
            }
        }
    }

    /** Answers each text message with {@code echo:} and the message. */
    private static void echo(ServerWebSocket socket) {
        received.add("WS " + socket.path() + " key=" + socket.headers().get("sec-websocket-key"));
        socket.textMessageHandler(message -> socket.writeTextMessage("echo:" + message));
    }

    private static String md5(Buffer body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(body.getBytes()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
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
    void uploadsExpectContinueStreamsAndWebSocketsPassOnAnAllowedPath() {
        UUID company = UUID.randomUUID();
        given().contentType(ContentType.JSON).body(Map.of("entries", List.of(Map.of("host", RULED,
                        "methods", List.of("GET", "POST"), "paths", List.of("/ok/")))))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
        String url = "https://" + RULED;
        String c = "curl -s --max-time 30 --noproxy '*' ";
        // a client that waited out --expect100-timeout (60 s) for a 100 that never came fails --max-time
        String expect = c + "-H 'Expect: 100-continue' --expect100-timeout 60 --data-binary @/tmp/up ";
        String sClient = "openssl s_client -quiet -verify_return_error -CAfile \"$SSL_CERT_FILE\" -connect " + RULED
                + ":443 -servername " + RULED;
        String wait = "i=0; until grep -q %s /tmp/ws.out || [ $i -ge 200 ]; do sleep 0.1; i=$((i+1)); done; ";
        String script = ""
                + "head -c 3000000 /dev/urandom > /tmp/up; echo \"sum=md5=$(md5sum < /tmp/up | cut -d' ' -f1)\"; "
                // a) a chunked upload (curl reads stdin, so its length is unknown)
                + "echo \"chunked=$(" + c + "-T - -X POST -w '/%{http_code}' " + url + "/ok/upload < /tmp/up)\"; "
                // b) Expect: 100-continue, allowed and refused
                + "echo \"expect=$(" + expect + "-D /tmp/h1 -w '/%{http_code}' " + url + "/ok/upload)\"; "
                + "echo \"expect_100=$(grep -c '100 Continue' /tmp/h1)\"; "
                + "echo \"refused=$(" + expect + "-D /tmp/h2 -o /tmp/refused -w '%{http_code}/%{size_upload}' "
                + url + "/no/upload)\"; "
                + "echo \"refused_100=$(grep -c '100 Continue' /tmp/h2)\"; "
                + "echo \"refused_body=$(cat /tmp/refused)\"; "
                // c) the host sends its second event only once the sandbox says it read the first
                + c + "-N '" + url + "/ok/stream?id='$(hostname) | while IFS= read -r line; do "
                + "[ -n \"$line\" ] && echo \"event=$line\"; "
                + "[ \"$line\" = 'data: one' ] && " + c + "-o /dev/null '" + url + "/ok/seen?id='$(hostname); done; "
                // d) a WebSocket: the handshake, then a masked text frame (mask 0) once the 101 arrived
                + "mkfifo /tmp/ws.in; " + sClient + " < /tmp/ws.in > /tmp/ws.out 2>/tmp/ws.err & ws=$!; "
                + "exec 3>/tmp/ws.in; "
                + "printf 'GET /ok/ws HTTP/1.1\\r\\nHost: " + RULED + "\\r\\nUpgrade: websocket\\r\\n"
                + "Connection: Upgrade\\r\\nSec-WebSocket-Key: " + WS_KEY + "\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n'"
                + " >&3; "
                + wait.formatted("'101 Switching'")
                + "printf '\\201\\205\\000\\000\\000\\000hello' >&3; "
                + wait.formatted("echo:hello")
                + "exec 3>&-; kill $ws; "
                + "echo \"ws_status=$(head -1 /tmp/ws.out | tr -d '\\r')\"; "
                + "echo \"ws_accept=$(grep -i '^sec-websocket-accept' /tmp/ws.out | tr -d '\\r')\"; "
                + "grep -q 'echo:hello' /tmp/ws.out && echo ws_echo=yes || { cat /tmp/ws.out /tmp/ws.err; }; "
                + "echo \"ws_refused=$(" + c + "-o /tmp/wsr -w '%{http_code} %{content_type}' -H 'Upgrade: websocket'"
                + " -H 'Connection: Upgrade' -H 'Sec-WebSocket-Key: " + WS_KEY + "' -H 'Sec-WebSocket-Version: 13' "
                + url + "/no/ws)\"; "
                + "echo \"ws_refused_body=$(cat /tmp/wsr)\"; "
                // an h2c upgrade is not carried: the request is answered over HTTP/1.1
                + "printf 'GET /ok/h2c HTTP/1.1\\r\\nHost: " + RULED + "\\r\\nConnection: Upgrade, HTTP2-Settings\\r\\n"
                + "Connection: close\\r\\nUpgrade: h2c\\r\\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\\r\\n\\r\\n'"
                + " | timeout 20 " + sClient + " > /tmp/h2c.out 2>/dev/null; "
                + "echo \"h2c=$(head -1 /tmp/h2c.out | tr -d '\\r')\"";
        UUID run = UUID.randomUUID();
        SandboxRuns.sharedAdapter(egressService);
        JsonNode end = SandboxRuns.publishAndAwait(kafka, List.of(new ProducerRecord<>(
                        Topics.RUN_REQUESTED, run.toString(),
                        SandboxRuns.sandboxRequest(run, company, tools, script, 150).toString())),
                Duration.ofSeconds(240)).get(run);

        String output = end.path("output").asText() + "\nreceived=" + received;
        assertThat(end.path("status").asText()).as(output).isEqualTo("SUCCEEDED");
        String sum = line(output, "sum=");
        assertThat(sum).as(output).matches("md5=[0-9a-f]{32}");
        assertThat(output).as("the chunked upload and the one after 100 Continue arrived whole")
                .contains("chunked=" + sum + "/200", "expect=" + sum + "/200", "expect_100=1");
        assertThat(output).as("refused before its body was sent: no 100, nothing uploaded")
                .contains("refused=403/0", "refused_100=0");
        assertThat(line(output, "refused_body=")).contains("\"egress_denied\"", "\"POST\"", "\"/no/upload\"");
        assertThat(output).as("the second event was written only after the first reached the sandbox")
                .contains("event=data: one\nevent=data: two").doesNotContain("data: late");
        assertThat(output).as(output).contains("ws_status=HTTP/1.1 101 Switching Protocols",
                "ws_echo=yes", "ws_refused=403 application/json", "h2c=HTTP/1.1 200 OK");
        assertThat(line(output, "ws_accept=")).isEqualToIgnoringCase("sec-websocket-accept: " + WS_ACCEPT);
        assertThat(line(output, "ws_refused_body=")).contains("\"egress_denied\"", "\"/no/ws\"");
        assertThat(received).as("what the host received")
                .contains("POST /ok/upload upgrade=null te=chunked length=3000000",
                        "GET /ok/stream upgrade=null", "GET /ok/seen upgrade=null stream=true",
                        "WS /ok/ws key=" + WS_KEY, "GET /ok/h2c upgrade=null")
                .filteredOn(seen -> seen.contains("/no/")).isEmpty();
    }

    /** The rest of the output line that starts with {@code prefix}. */
    private static String line(String output, String prefix) {
        int at = output.indexOf(prefix);
        assertThat(at).as(prefix + " in " + output).isGreaterThanOrEqualTo(0);
        int end = output.indexOf('\n', at);
        return output.substring(at + prefix.length(), end < 0 ? output.length() : end);
    }
}
