package io.trimus.adapter;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.a2a.spec.TextPart;
import io.trimus.adapter.support.A2aPeerStandIn;
import io.trimus.adapter.support.A2aRuns;
import io.trimus.adapter.support.EndpointStandIn;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static io.trimus.adapter.support.A2aRuns.executor;
import static io.trimus.adapter.support.EndpointStandIn.hang;
import static io.trimus.adapter.support.EndpointStandIn.json;
import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fair shares: one company's long runs hold at most TRIMUS_COMPANY_MAX_CONCURRENT_RUNS of the docker slots (on the
 * real engine), TRIMUS_COMPANY_MAX_CONCURRENT_LAMBDA_RUNS of the lambda slots (against an endpoint that never answers)
 * and TRIMUS_COMPANY_MAX_CONCURRENT_A2A_RUNS of the A2A slots (against a tarpit peer that takes the message and never
 * answers), by default half of each, so another company's run starts at once while the first company's extra runs
 * wait, DISPATCHED, until one of its own ends; the peers and endpoints are real HTTP servers on loopback.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class CompanyFairShareTest {

    private static final UUID HOG = UUID.randomUUID();
    private static final UUID OTHER = UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static String image;

    private final RunBus bus = RunBus.get();
    private final List<RunRequested> sent = new ArrayList<>();

    @BeforeAll
    static void image() {
        image = Engine.busybox();
    }

    @AfterEach
    void stopEverything() {
        sent.stream().filter(run -> bus.states(run.runId()).stream().noneMatch(RunState::isTerminal))
                .forEach(bus::cancel);
        sent.forEach(run -> bus.awaitEnd(run.runId(), Duration.ofSeconds(60)));
        Engine.removeCompanyContainers(HOG);
        Engine.removeCompanyContainers(OTHER);
    }

    @Test
    void oneCompanysLongRunsCannotHoldEverySlot() {
        int slots = ConfigProvider.getConfig().getValue("trimus.docker.max-concurrent-runs", Integer.class);
        int share = Math.max(1, slots / 2);
        assertThat(share).as("the test needs a share smaller than the pool").isLessThan(slots);
        List<RunRequested> hogs = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            hogs.add(request(HOG, "echo started; sleep 300"));
        }
        await().atMost(RunBus.FIRST_EVENT).until(() -> running(hogs).size() >= share);

        RunRequested other = request(OTHER, "echo other company; sleep 300");

        bus.await(other.runId(), RUNNING, Duration.ofSeconds(60));
        assertThat(running(hogs)).hasSize(share);
        List<RunRequested> waiting = hogs.stream().filter(run -> !running(hogs).contains(run)).toList();
        waiting.forEach(run -> assertThat(bus.states(run.runId())).containsExactly(DISPATCHED));
        waiting.forEach(run -> assertThat(Engine.containerOf(run.runId())).isEmpty());

        RunRequested ended = running(hogs).get(0);
        bus.cancel(ended);
        assertThat(bus.awaitEnd(ended.runId(), Duration.ofSeconds(30)).status()).isEqualTo(CANCELLED);

        await().atMost(Duration.ofSeconds(60)).until(() -> waiting.stream().anyMatch(this::isRunning));
        RunRequested promoted = waiting.stream().filter(this::isRunning).findFirst().orElseThrow();
        Engine.awaitOutput(promoted.runId(), "started");
        RunRequested stillWaiting = waiting.stream().filter(run -> run != promoted).findFirst().orElseThrow();
        assertThat(bus.states(stillWaiting.runId())).containsExactly(DISPATCHED);

        bus.cancel(stillWaiting);
        RunStatusChanged end = bus.awaitEnd(stillWaiting.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.error()).isEqualTo("cancelled before it started");
        assertThat(Engine.containerOf(stillWaiting.runId())).isEmpty();
    }

    @Test
    void oneCompanysTarpitA2aPeerCannotHoldEveryA2aSlot() {
        int slots = setting("trimus.a2a.max-concurrent-runs");
        int share = share("trimus.company.max-concurrent-a2a-runs", slots);
        assertThat(share).as("the test needs a share smaller than the pool").isLessThan(slots);
        Set<String> reached = ConcurrentHashMap.newKeySet();
        try (A2aPeerStandIn peers = A2aPeerStandIn.start("127.0.0.1")) {
            // takes each message and never answers: every run sent here holds its slot until it is stopped
            peers.raw("tarpit", false, (request, rpc) -> reached.add(rpc.at("/params/message/parts/0/text").asText()));
            peers.agent("quick", false, executor((context, updater) -> {
                updater.addArtifact(List.of(new TextPart("the other company's answer")));
                updater.complete();
            }));
            List<RunRequested> hogs = new ArrayList<>();
            for (int i = 0; i < slots; i++) {
                hogs.add(a2a(HOG, peers.url("tarpit")));
            }
            await().atMost(RunBus.FIRST_EVENT).until(() -> reached.size() >= share);

            RunRequested other = a2a(OTHER, peers.url("quick"));

            RunStatusChanged end = bus.awaitEnd(other.runId(), Duration.ofSeconds(60));
            assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
            assertThat(end.output()).isEqualTo("the other company's answer");
            assertThat(reached).hasSize(share);
            List<RunRequested> waiting = hogs.stream().filter(run -> !reached.contains(run.input())).toList();
            waiting.forEach(run -> assertThat(bus.states(run.runId())).containsExactly(DISPATCHED));

            RunRequested stopped = hogs.stream().filter(run -> reached.contains(run.input())).findFirst().orElseThrow();
            bus.cancel(stopped);
            assertThat(bus.awaitEnd(stopped.runId(), Duration.ofSeconds(30)).error())
                    .isEqualTo("cancelled; the peer had named no task yet");
            await().atMost(Duration.ofSeconds(30)).until(() -> reached.size() == share + 1);
            RunRequested stillWaiting = waiting.stream().filter(run -> !reached.contains(run.input())).findFirst()
                    .orElseThrow();
            bus.cancel(stillWaiting);
            assertThat(bus.awaitEnd(stillWaiting.runId(), Duration.ofSeconds(30)).error())
                    .isEqualTo("cancelled before it started");
            assertThat(reached).doesNotContain(stillWaiting.input());
            stopEverything();
        }
    }

    @Test
    void oneCompanysHangingLambdaEndpointCannotHoldEveryLambdaSlot() {
        int slots = setting("trimus.lambda.max-concurrent-runs");
        int share = share("trimus.company.max-concurrent-lambda-runs", slots);
        assertThat(share).as("the test needs a share smaller than the pool").isLessThan(slots);
        try (EndpointStandIn endpoint = EndpointStandIn.start("127.0.0.1")) {
            endpoint.on("/hang", hang());
            endpoint.on("/quick", json(200, "{\"status\":\"succeeded\",\"output\":\"the other company's answer\"}"));
            List<RunRequested> hogs = new ArrayList<>();
            for (int i = 0; i < slots; i++) {
                hogs.add(lambda(HOG, endpoint.url("/hang")));
            }
            await().atMost(RunBus.FIRST_EVENT).until(() -> endpoint.requests("/hang").size() >= share);

            RunRequested other = lambda(OTHER, endpoint.url("/quick"));

            RunStatusChanged end = bus.awaitEnd(other.runId(), Duration.ofSeconds(60));
            assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
            assertThat(end.output()).isEqualTo("the other company's answer");
            assertThat(endpoint.requests("/hang")).hasSize(share);
            assertThat(running(hogs)).hasSize(share);
            List<RunRequested> waiting = hogs.stream().filter(run -> !isRunning(run)).toList();
            waiting.forEach(run -> assertThat(bus.states(run.runId())).containsExactly(DISPATCHED));

            RunRequested stopped = running(hogs).get(0);
            bus.cancel(stopped);
            assertThat(bus.awaitEnd(stopped.runId(), Duration.ofSeconds(30)).error())
                    .isEqualTo("cancelled; the call to the endpoint was aborted");
            await().atMost(Duration.ofSeconds(30)).until(() -> waiting.stream().anyMatch(this::isRunning));
            RunRequested stillWaiting = waiting.stream().filter(run -> !isRunning(run)).findFirst().orElseThrow();
            bus.cancel(stillWaiting);
            assertThat(bus.awaitEnd(stillWaiting.runId(), Duration.ofSeconds(30)).error())
                    .isEqualTo("cancelled before it started");
            assertThat(endpoint.requests("/hang")).hasSize(share + 1);
            stopEverything();
        }
    }

    private RunRequested a2a(UUID company, String url) {
        RunRequested run = A2aRuns.request(company, Map.of("url", url, "timeout_ms", 300_000), Map.of(), null,
                UUID.randomUUID().toString());
        sent.add(run);
        bus.request(run);
        return run;
    }

    private RunRequested lambda(UUID company, String url) {
        RunRequested run = Runs.of(company, "lambda", JSON.valueToTree(Map.of("endpoint_url", url,
                "timeout_ms", 300_000)), null, null);
        sent.add(run);
        bus.request(run);
        return run;
    }

    private static int setting(String name) {
        return ConfigProvider.getConfig().getValue(name, Integer.class);
    }

    /** The share the app runs with: the setting, else half the slots (at least one). */
    private static int share(String name, int slots) {
        return ConfigProvider.getConfig().getOptionalValue(name, Integer.class).orElse(Math.max(1, slots / 2));
    }

    private RunRequested request(UUID company, String script) {
        RunRequested run = Runs.docker(company, Map.of("image", image, "command", sh(script)));
        sent.add(run);
        bus.request(run);
        return run;
    }

    private List<RunRequested> running(List<RunRequested> runs) {
        return runs.stream().filter(this::isRunning).toList();
    }

    private boolean isRunning(RunRequested run) {
        List<?> states = bus.states(run.runId());
        return states.contains(RUNNING) && states.size() == 2;
    }
}
