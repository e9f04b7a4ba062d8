package io.trimus.adapter.lambda;

import io.trimus.adapter.offhost.EndpointAddressPolicy;
import io.trimus.adapter.offhost.HostResolver;
import io.trimus.adapter.run.RunStarts;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.adapter.support.EndpointStandIn;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.events.secrets.Redactor;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trimus.adapter.support.EndpointStandIn.inTurn;
import static io.trimus.adapter.support.EndpointStandIn.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The name-resolution half of the SSRF guard, with a resolver the test controls (so a host name can be made to
 * resolve to anything without DNS): every resolved address is judged, and the one judged is the one dialled for every
 * attempt, whatever the name resolves to later; and a call that ends before it was made gives back its slot. Every
 * address here is a loopback one, so even a broken guard could only reach this host.
 */
class LambdaCallerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ANSWER = "{\"status\":\"succeeded\",\"output\":\"done\"}";
    private static Vertx vertx;
    private static EndpointStandIn first;
    private static EndpointStandIn second;

    private final List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        first = EndpointStandIn.start("127.0.0.1");
        second = EndpointStandIn.start("127.0.0.2", first.port());
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
        vertx.close();
    }

    @Test
    void aNameResolvingToAnyRefusedAddressIsRejectedAndNothingIsDialled() {
        first.on("/mixed", json(200, ANSWER));
        second.on("/mixed", json(200, ANSWER));
        LambdaCaller caller = caller(allowing("127.0.0.1/32"),
                host -> new InetAddress[]{address("127.0.0.1"), address("127.0.0.2")});
        RunRequested run = run("/mixed", 0);

        caller.submit(call(run));

        RunStatusChanged end = awaitEnd(run);
        assertThat(end.status()).isEqualTo(RunState.REJECTED);
        assertThat(end.error()).isEqualTo("the endpoint is refused: agent.test resolves to 127.0.0.2, and 127.0.0.2"
                + " is a loopback address; a lambda endpoint must be a public address unless"
                + " TRIMUS_LAMBDA_ALLOW_PRIVATE covers it");
        assertThat(reported).extracting(RunStatusChanged::status).containsExactly(RunState.REJECTED);
        assertThat(first.requests("/mixed")).isEmpty();
        assertThat(second.requests("/mixed")).isEmpty();
    }

    @Test
    void theHostIsResolvedOnceAndEveryAttemptDialsThatAddress() {
        first.on("/rebind", inTurn(json(503, ""), json(503, ""), json(200, ANSWER)));
        second.on("/rebind", json(200, ANSWER));
        AtomicInteger lookups = new AtomicInteger();
        // a rebinding name: the first answer is the allowed address, every later one another address
        LambdaCaller caller = caller(allowing("127.0.0.1/32", "127.0.0.2/32"),
                host -> new InetAddress[]{address(lookups.getAndIncrement() == 0 ? "127.0.0.1" : "127.0.0.2")});
        RunRequested run = run("/rebind", 2);

        caller.submit(call(run));

        RunStatusChanged end = awaitEnd(run);
        assertThat(end.status()).as(end.error()).isEqualTo(RunState.SUCCEEDED);
        assertThat(lookups).hasValue(1);
        assertThat(first.requests("/rebind")).hasSize(3)
                .allSatisfy(r -> assertThat(r.headers()).containsEntry("host", "agent.test:" + first.port()));
        assertThat(second.requests("/rebind")).isEmpty();
    }

    @Test
    void aNameThatDoesNotResolveFailsTheRun() {
        LambdaCaller caller = caller(EndpointAddressPolicy.publicOnly(), host -> {
            throw new java.net.UnknownHostException(host);
        });
        RunRequested run = run("/nowhere", 0);

        caller.submit(call(run));

        RunStatusChanged end = awaitEnd(run);
        assertThat(end.status()).isEqualTo(RunState.FAILED);
        assertThat(end.error()).isEqualTo("the endpoint's host agent.test does not resolve");
    }

    @Test
    void aCallWhoseStartCouldNotBeRecordedGivesBackItsSlot() {
        first.on("/after", json(200, ANSWER));
        RunRequested unrecorded = run("/after", 0);
        RunRequested next = run("/after", 0);
        RunStarts starts = new RunStarts() {
            @Override
            public CompletionStage<Start> recordStart(UUID runId) {
                return CompletableFuture.completedFuture(
                        runId.equals(unrecorded.runId()) ? Start.NOT_RECORDED : Start.GO);
            }

            @Override
            public Start awaitStart(UUID runId) {
                throw new UnsupportedOperationException();
            }
        };
        LambdaCaller caller = new LambdaCaller(vertx, reported::add, starts,
                allowing("127.0.0.1/32"),
                host -> new InetAddress[]{address("127.0.0.1")}, 1024 * 1024, 65_536, 1, 1);

        caller.submit(call(unrecorded));
        assertThat(awaitEnd(unrecorded).error()).isEqualTo(RunStarts.NOT_RECORDED);
        caller.submit(call(next));

        assertThat(awaitEnd(next).status()).as("the one slot is free again").isEqualTo(RunState.SUCCEEDED);
    }

    private static EndpointAddressPolicy allowing(String... ranges) {
        return EndpointAddressPolicy.allowing(List.of(ranges), LambdaCaller.ALLOW_PRIVATE);
    }

    private LambdaCaller caller(EndpointAddressPolicy policy, HostResolver resolver) {
        return new LambdaCaller(vertx, reported::add, RunStarts.UNRECORDED, policy, resolver, 1024 * 1024, 65_536, 4,
                4);
    }

    private RunStatusChanged awaitEnd(RunRequested run) {
        await().atMost(Duration.ofSeconds(20)).until(() -> reported.stream()
                .anyMatch(e -> e.runId().equals(run.runId()) && e.status().isTerminal()));
        return reported.stream().filter(e -> e.runId().equals(run.runId()) && e.status().isTerminal()).findFirst()
                .orElseThrow();
    }

    private static RunRequested run(String path, int retries) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "lambda",
                JSON.valueToTree(Map.of("endpoint_url", "http://agent.test:" + first.port() + path,
                        "retries", retries, "backoff_ms", 10)), null, "go", Instant.now());
    }

    private static LambdaCall call(RunRequested run) {
        LambdaAdapterConfig config = LambdaAdapterConfig.parse(run.adapterConfig());
        return new LambdaCall(run, config, null, Map.of("Idempotency-Key", run.runId().toString(),
                "Content-Type", "application/json"), LambdaContract.payload(run, config), Redactor.none());
    }

    private static InetAddress address(String literal) {
        return EndpointAddressPolicy.literal(literal).orElseThrow();
    }
}
