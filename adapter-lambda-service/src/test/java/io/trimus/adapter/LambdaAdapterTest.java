package io.trimus.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.CapturedLogs;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.EndpointStandIn;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static io.trimus.adapter.support.EndpointStandIn.chunked;
import static io.trimus.adapter.support.EndpointStandIn.hang;
import static io.trimus.adapter.support.EndpointStandIn.inTurn;
import static io.trimus.adapter.support.EndpointStandIn.json;
import static io.trimus.adapter.support.EndpointStandIn.redirect;
import static io.trimus.adapter.support.EndpointStandIn.trickle;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lambda adapter against real HTTP servers this test starts on loopback, in this app's configuration
 * (TRIMUS_LAMBDA_ALLOW_PRIVATE=127.0.0.1/32,::1/128): the payload and response contract, failures as sentences,
 * timeouts that hold against a trickling body, the response and header caps, redirects not followed, the auth header
 * from a sealed secret and never logged, retries, cancel, and the SSRF guard refusing a loopback address outside the
 * list.
 * Every endpoint URL here is a loopback address: no test sends traffic off the host, even if the guard were broken.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class LambdaAdapterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(30);
    private static final String SUCCEEDED_ANSWER = "{\"status\":\"succeeded\",\"output\":\"done\",\"exit_code\":0}";
    private static EndpointStandIn endpoint;
    private static EndpointStandIn elsewhere;

    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void endpoints() {
        endpoint = EndpointStandIn.start("127.0.0.1");
        elsewhere = EndpointStandIn.start("127.0.0.1");
    }

    @AfterAll
    static void stopEndpoints() {
        endpoint.close();
        elsewhere.close();
    }

    @Test
    void aSucceededAnswerEndsTheRunSucceededWithItsOutput() {
        endpoint.on("/ok", json(200, "{\"status\":\"succeeded\",\"output\":\"42 files checked\",\"exit_code\":0,"
                + "\"extra\":{\"ignored\":true}}"));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/ok")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("42 files checked");
        assertThat(end.exitCode()).isZero();
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, RUNNING, SUCCEEDED);
    }

    @Test
    void theRequestCarriesThePayloadContractTheIdempotencyKeyAndTheAgentsHeaders() throws Exception {
        endpoint.on("/payload", json(200, SUCCEEDED_ANSWER));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/payload?tenant=a"), "method", "PUT",
                        "headers", Map.of("X-Team", "platform", "accept", "application/vnd.agent+json")),
                Map.of(), new IssueRef("TRI-9", "Flaky test", "fails on Mondays"), "be brief");
        bus.request(run);
        assertThat(bus.awaitEnd(run.runId(), END).status()).isEqualTo(SUCCEEDED);

        EndpointStandIn.Request request = endpoint.requests("/payload").get(0);
        JsonNode body = JSON.readTree(request.body());

        assertThat(request.method()).isEqualTo("PUT");
        assertThat(request.uri()).isEqualTo("/payload?tenant=a");
        assertThat(request.headers()).containsEntry("idempotency-key", run.runId().toString())
                .containsEntry("content-type", "application/json")
                .containsEntry("accept", "application/vnd.agent+json")
                .containsEntry("x-team", "platform")
                .containsEntry("host", "127.0.0.1:" + endpoint.port());
        assertThat(body.get("run_id").asText()).isEqualTo(run.runId().toString());
        assertThat(body.get("company_id").asText()).isEqualTo(COMPANY.toString());
        assertThat(body.get("agent_id").asText()).isEqualTo(run.agentId().toString());
        assertThat(body.get("issue").get("id").asText()).isEqualTo("TRI-9");
        assertThat(body.get("issue").get("title").asText()).isEqualTo("Flaky test");
        assertThat(body.get("issue").get("body").asText()).isEqualTo("fails on Mondays");
        assertThat(body.get("input").asText()).isEqualTo("be brief");
        assertThat(body.get("context").get("adapter_type").asText()).isEqualTo("lambda");
        assertThat(body.get("context").get("timeout_ms").asInt()).isEqualTo(LambdaAdapterConfig.DEFAULT_TIMEOUT_MS);
        assertThat(body.get("context").get("requested_at").asText()).isEqualTo(run.requestedAt().toString());
    }

    @Test
    void aHostNameIsResolvedOnceAndDialledAtItsAddressWithTheHostHeaderKept() {
        endpoint.on("/named", json(200, SUCCEEDED_ANSWER));
        RunRequested run = request(Map.of("endpoint_url", "http://localhost:" + endpoint.port() + "/named"),
                Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(endpoint.requests("/named")).singleElement()
                .satisfies(r -> assertThat(r.headers()).containsEntry("host", "localhost:" + endpoint.port()));
    }

    @Test
    void aFailedAnswerEndsTheRunFailedWithItsExitCodeAndOutput() {
        endpoint.on("/failed", json(200, "{\"status\":\"failed\",\"output\":\"2 tests failed\",\"exit_code\":3}"));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/failed")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.exitCode()).isEqualTo(3);
        assertThat(end.output()).isEqualTo("2 tests failed");
        assertThat(end.error()).isEqualTo("the endpoint reported the run failed with exit code 3");
    }

    @Test
    void anErrorStatusFailsTheRunNamingIt() {
        endpoint.on("/broken", json(500, "{\"message\":\"database down\"}"));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/broken")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("endpoint answered HTTP 500");
        assertThat(end.output()).isEqualTo("{\"message\":\"database down\"}");
        assertThat(endpoint.requests("/broken")).hasSize(1);
    }

    @Test
    void anAnswerThatBreaksTheContractFailsTheRunSayingHow() {
        endpoint.on("/html", json(200, "<html>hello</html>"));
        endpoint.on("/shape", json(200, "{\"status\":\"done\"}"));
        RunRequested html = request(Map.of("endpoint_url", endpoint.url("/html")), Map.of());
        RunRequested shape = request(Map.of("endpoint_url", endpoint.url("/shape")), Map.of());
        bus.request(html);
        bus.request(shape);

        RunStatusChanged htmlEnd = bus.awaitEnd(html.runId(), END);
        RunStatusChanged shapeEnd = bus.awaitEnd(shape.runId(), END);

        assertThat(htmlEnd.status()).isEqualTo(FAILED);
        assertThat(htmlEnd.error()).startsWith("endpoint answered HTTP 200 with a body that is not JSON;")
                .contains("\"succeeded\" | \"failed\"");
        assertThat(shapeEnd.status()).isEqualTo(FAILED);
        assertThat(shapeEnd.error()).startsWith("endpoint answered HTTP 200 without status \"succeeded\" or \"failed\"");
    }

    @Test
    void anEndpointThatNeverAnswersTimesOutAndIsNotRetried() {
        endpoint.on("/hang", hang());
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/hang"), "timeout_ms", 1500, "retries", 3,
                "backoff_ms", 10), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.error()).isEqualTo("the endpoint did not answer within 1500 ms (timeout_ms); the call was"
                + " aborted");
        assertThat(endpoint.requests("/hang")).hasSize(1);
    }

    @Test
    void aTricklingBodyEndsAtTheTimeoutAndTheConnectionIsDropped() {
        endpoint.on("/trickle", trickle());
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/trickle"), "timeout_ms", 2000), Map.of());
        int abandonedBefore = endpoint.abandoned();
        bus.request(run);

        RunStatusChanged running = bus.await(run.runId(), RUNNING, END);
        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.error()).isEqualTo("the endpoint's answer did not end within 2000 ms (timeout_ms); the call"
                + " was aborted");
        assertThat(Duration.between(running.occurredAt(), end.occurredAt())).isBetween(Duration.ofMillis(1500),
                Duration.ofMillis(6000));
        await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.abandoned() > abandonedBefore);
    }

    @Test
    void anAnswerLargerThanTheCapIsCutOffAndFailsTheRun() {
        endpoint.on("/huge", chunked(3 * 1024 * 1024));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/huge")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("the endpoint's answer is larger than 1048576 bytes"
                + " (TRIMUS_LAMBDA_MAX_RESPONSE_BYTES); reading stopped there");
        assertThat(end.output()).isNull();
    }

    @Test
    void anAnswerWithHeadersOverTheirBoundFailsTheRun() {
        endpoint.on("/headers", (exchange, standIn) -> {
            exchange.getResponseHeaders().set("X-Padding", "p".repeat(100_000));
            json(200, SUCCEEDED_ANSWER).answer(exchange, standIn);
        });
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/headers")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("the call to the endpoint broke off: HTTP header is larger than 8192"
                + " bytes.");
    }

    @Test
    void aRedirectIsNotFollowed() {
        elsewhere.on("/target", json(200, SUCCEEDED_ANSWER));
        endpoint.on("/moved", redirect(302, elsewhere.url("/target")));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/moved")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("endpoint answered HTTP 302; redirects are not followed");
        assertThat(endpoint.requests("/moved")).hasSize(1);
        assertThat(elsewhere.requests()).isEmpty();
    }

    @Test
    void theAuthHeaderComesFromTheSealedSecretAndIsNeverLoggedOrReported() {
        String token = "Bearer lambda-" + UUID.randomUUID();
        endpoint.on("/auth", (exchange, standIn) -> {
            String seen = exchange.getRequestHeaders().getFirst("Authorization");
            byte[] answer = ("{\"status\":\"failed\",\"output\":\"auth=" + seen + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
        });
        try (CapturedLogs logs = CapturedLogs.install()) {
            RunRequested run = request(Map.of("endpoint_url", endpoint.url("/auth"),
                            "auth_header", Map.of("name", "Authorization", "secret", "AGENT_TOKEN")),
                    Map.of(LambdaAdapterConfig.AUTH_HEADER_SECRET, token));
            bus.request(run);

            RunStatusChanged end = bus.awaitEnd(run.runId(), END);

            assertThat(endpoint.requests("/auth")).singleElement()
                    .satisfies(r -> assertThat(r.headers()).containsEntry("authorization", token));
            assertThat(end.status()).isEqualTo(FAILED);
            assertThat(end.output()).isEqualTo("auth=[REDACTED]");
            assertThat(logs.lines()).anySatisfy(line -> assertThat(line).contains(run.runId().toString()));
            assertThat(logs.lines()).noneSatisfy(line -> assertThat(line).contains(token.substring(7)));
            assertThat(bus.events(run.runId())).noneSatisfy(e -> assertThat(String.valueOf(e.output())
                    + e.error()).contains(token.substring(7)));
        }
    }

    @Test
    void aRunWhoseAuthSecretIsMissingIsRejectedWithoutACall() {
        endpoint.on("/keyless", json(200, SUCCEEDED_ANSWER));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/keyless"),
                "auth_header", Map.of("name", "X-Api-Key", "secret", "AGENT_KEY")), Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).contains("X-Api-Key").contains("AGENT_KEY");
        assertThat(endpoint.requests("/keyless")).isEmpty();
    }

    @Test
    void serverErrorsAreRetriedWithTheSameIdempotencyKey() {
        endpoint.on("/flaky", inTurn(json(503, ""), json(502, ""), json(200, SUCCEEDED_ANSWER)));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/flaky"), "retries", 2, "backoff_ms", 50),
                Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(endpoint.requests("/flaky")).hasSize(3)
                .allSatisfy(r -> assertThat(r.headers()).containsEntry("idempotency-key", run.runId().toString()))
                .extracting(EndpointStandIn.Request::body).containsOnly(endpoint.requests("/flaky").get(0).body());
    }

    @Test
    void retriesEndWhenTheyAreUsedUp() {
        endpoint.on("/down", json(503, ""));
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/down"), "retries", 1, "backoff_ms", 10),
                Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("endpoint answered HTTP 503 (after 1 retry)");
        assertThat(endpoint.requests("/down")).hasSize(2);
    }

    @Test
    void aCancelAbortsTheCallInFlight() {
        endpoint.on("/slow", hang());
        RunRequested run = request(Map.of("endpoint_url", endpoint.url("/slow"), "timeout_ms", 60_000), Map.of());
        bus.request(run);
        bus.await(run.runId(), RUNNING, END);
        await().atMost(END).until(() -> endpoint.requests("/slow").size() == 1);

        bus.cancel(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.error()).isEqualTo("cancelled; the call to the endpoint was aborted");
    }

    @Test
    void aLoopbackAddressOutsideTheAllowListIsRefusedAndNeverDialled() {
        try (EndpointStandIn outside = EndpointStandIn.start("127.0.0.2")) {
            outside.on("/run", json(200, SUCCEEDED_ANSWER));
            RunRequested plain = request(Map.of("endpoint_url", outside.url("/run")), Map.of());
            RunRequested mapped = request(Map.of("endpoint_url", "http://[::ffff:127.0.0.2]:" + outside.port()
                    + "/run"), Map.of());
            bus.request(plain);
            bus.request(mapped);

            RunStatusChanged plainEnd = bus.awaitEnd(plain.runId(), END);
            RunStatusChanged mappedEnd = bus.awaitEnd(mapped.runId(), END);

            assertThat(plainEnd.status()).isEqualTo(REJECTED);
            assertThat(plainEnd.error()).isEqualTo("the endpoint is refused: 127.0.0.2 is a loopback address; a lambda"
                    + " endpoint must be a public address unless TRIMUS_LAMBDA_ALLOW_PRIVATE covers it");
            assertThat(bus.states(plain.runId())).containsExactly(REJECTED);
            assertThat(mappedEnd.status()).isEqualTo(REJECTED);
            assertThat(mappedEnd.error()).contains("127.0.0.2 is a loopback address");
            assertThat(outside.requests()).isEmpty();
        }
    }

    private static RunRequested request(Map<String, ?> config, Map<String, String> secrets) {
        return request(config, secrets, null, null);
    }

    private static RunRequested request(Map<String, ?> config, Map<String, String> plain, IssueRef issue,
                                        String input) {
        UUID runId = UUID.randomUUID();
        EncryptionKey key = EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key",
                String.class));
        UUID agentId = UUID.randomUUID();
        return Runs.request(UUID.randomUUID(), runId, COMPANY, agentId, "lambda",
                JSON.valueToTree(new HashMap<>(config)), issue, input, Instant.now(),
                new DispatchSecrets(key.dispatchKey()).seal(COMPANY, agentId, runId, plain));
    }
}
