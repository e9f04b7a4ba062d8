package io.trimus.adapter;

import io.a2a.spec.CancelTaskResponse;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.Task;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TextPart;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.A2aPeerStandIn;
import io.trimus.adapter.support.A2aRuns;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.RunBus;
import io.trimus.events.OutputTail;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.trimus.adapter.support.A2aRuns.executor;
import static io.trimus.adapter.support.A2aRuns.json;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a run holds of what its A2A peer sends is bounded, against peers served on loopback (the SDK's server logic, or
 * a raw handler for what the SDK would never send), in A2aPeerTest's app: a stream of artifacts far over the output cap
 * keeps only the output's end (with a note); a task id of a megabyte fails the run and is never reported, stored or
 * sent back; a peer's status message of hundreds of kilobytes is quoted short; and a peer that never answers, or a
 * stream that trickles bytes without ever reaching a final state, ends at the run's timeout with the connection cut.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class A2aPeerBoundsTest {
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(30);
    private static A2aPeerStandIn peers;

    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void startPeers() {
        peers = A2aPeerStandIn.start("127.0.0.1");
    }

    @AfterAll
    static void stopPeers() {
        peers.close();
    }

    @Test
    void aStreamOfArtifactsFarOverTheOutputCapKeepsTheOutputsEndWithANote() {
        int cap = ConfigProvider.getConfig().getValue("trimus.run.output-max-bytes", Integer.class);
        int chunks = 40;
        String filler = "y".repeat(32 * 1024);
        peers.agent("verbose", true, executor((context, updater) -> {
            updater.startWork();
            for (int i = 0; i < chunks; i++) {
                updater.addArtifact(List.of(new TextPart(String.format("chunk %02d %s", i, filler))), "report",
                        "report", null, i > 0, i == chunks - 1);
            }
            updater.complete();
        }));
        RunRequested run = request(Map.of("url", peers.url("verbose")), "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(chunks * filler.length()).as("the stream is far over the cap").isGreaterThan(16 * cap);
        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(cap);
        assertThat(end.output()).startsWith(OutputTail.TRUNCATED_MARKER).endsWith("chunk 39 " + filler)
                .doesNotContain("chunk 37");
        assertThat(end.notes()).containsExactly("the A2A peer's artifacts held more than the " + cap + " bytes of text"
                + " (TRIMUS_RUN_OUTPUT_MAX_BYTES) or the 1000 artifacts and parts a run keeps; their beginning was let"
                + " go, the output is their end");
    }

    @Test
    void aTaskIdOfAMegabyteFailsTheRunAndIsNeverReportedStoredOrSentBack() {
        String hugeId = "t".repeat(1_000_000);
        peers.raw("huge-id", false, (request, rpc) -> {
            Object id = rpcId(rpc);
            Task working = new Task(hugeId, "ctx", new TaskStatus(TaskState.WORKING), List.of(), List.of(), null);
            request.response().putHeader("Content-Type", "application/json").end(json(
                    rpc.path("method").asText().equals("message/send") ? new SendMessageResponse(id, working)
                            : new GetTaskResponse(id, working)));
        });
        RunRequested run = request(Map.of("url", peers.url("huge-id"), "timeout_ms", 20_000), "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("the A2A peer gave its task an id of 1000000 characters; Trimus follows only"
                + " tasks whose id is 1 to 256 printable characters, so the run ends here and the id is not kept");
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, FAILED);
        assertThat(bus.events(run.runId())).allSatisfy(e -> assertThat(e.peerTaskId()).isNull());
        assertThat(peers.rpcMethods("huge-id")).containsExactly("message/send");
    }

    @Test
    void aStatusMessageOfHundredsOfKilobytesIsQuotedShort() {
        String essay = "the peer explains at length. ".repeat(14_000);
        peers.agent("wordy", false, executor((context, updater) -> updater.fail(updater.newAgentMessage(
                List.of(new TextPart(essay)), null))));
        RunRequested run = request(Map.of("url", peers.url("wordy")), "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).startsWith("the A2A peer's task " + end.peerTaskId() + " failed: the peer explains")
                .endsWith("…").hasSizeLessThan(2200);
    }

    @Test
    void aPeerThatNeverAnswersTimesOutAtTheRunsTimeout() {
        peers.raw("silent", false, (request, rpc) -> {
        });
        RunRequested run = request(Map.of("url", peers.url("silent"), "timeout_ms", 1000), "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.error()).isEqualTo("the A2A peer's task did not end within 1000 ms (timeout_ms); the peer had"
                + " named no task yet");
        assertThat(peers.rpcMethods("silent")).containsExactly("message/send");
    }

    @Test
    void aStreamThatTricklesBytesWithoutAFinalStateEndsAtTheTimeoutAndIsCut() {
        String taskId = UUID.randomUUID().toString();
        AtomicBoolean closed = new AtomicBoolean();
        peers.raw("trickling", true, (request, rpc) -> {
            Object id = rpcId(rpc);
            Task working = new Task(taskId, "ctx", new TaskStatus(TaskState.WORKING), List.of(), List.of(), null);
            if (!rpc.path("method").asText().equals("message/stream")) {
                Task canceled = new Task(taskId, "ctx", new TaskStatus(TaskState.CANCELED), List.of(), List.of(), null);
                request.response().putHeader("Content-Type", "application/json")
                        .end(json(new CancelTaskResponse(id, canceled)));
                return;
            }
            HttpServerResponse response = request.response().setChunked(true)
                    .putHeader("Content-Type", "text/event-stream");
            response.write("data: " + json(new SendStreamingMessageResponse(id, working)) + "\n\n");
            Vertx vertx = Vertx.currentContext().owner();
            vertx.setPeriodic(100, timer -> {
                if (response.closed()) {
                    closed.set(true);
                    vertx.cancelTimer(timer);
                } else {
                    response.write(": still working\n");   // an SSE comment: bytes, never an event
                }
            });
        });
        RunRequested run = request(Map.of("url", peers.url("trickling"), "timeout_ms", 1500), "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.error()).isEqualTo("the A2A peer's task did not end within 1500 ms (timeout_ms); the A2A peer's"
                + " task " + taskId + " was asked to cancel");
        await().atMost(END).untilTrue(closed);
        await().atMost(END).until(() -> peers.rpcMethods("trickling").contains("tasks/cancel"));
    }

    private static Object rpcId(com.fasterxml.jackson.databind.JsonNode rpc) {
        return rpc.get("id").isNumber() ? rpc.get("id").asLong() : rpc.get("id").asText();
    }

    private static RunRequested request(Map<String, ?> a2a, String input) {
        return A2aRuns.request(COMPANY, a2a, Map.of(), null, input);
    }
}
