package io.trimus.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.a2a.server.agentexecution.AgentExecutor;
import io.a2a.server.agentexecution.RequestContext;
import io.a2a.server.events.EventQueue;
import io.a2a.server.tasks.TaskUpdater;
import io.a2a.spec.Artifact;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.Message;
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
import io.trimus.adapter.support.CapturedLogs;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.RunBus;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.A2aPeerConfig;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.trimus.adapter.support.A2aRuns.executor;
import static io.trimus.adapter.support.A2aRuns.hold;
import static io.trimus.adapter.support.A2aRuns.json;
import static io.trimus.adapter.support.A2aRuns.writeUntil;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Remote runs delegated to A2A peers (adapter_config.a2a), against loopback peers running the A2A SDK's server logic
 * (or a raw handler for what the SDK would never do), TRIMUS_A2A_ALLOW_PRIVATE=127.0.0.1/32,::1/128: streaming and
 * polling peers, task states mapped to the run's, the message sent, a cancel that reaches the peer, the
 * answer cap, redirects not followed, a loopback address outside the list refused, a broken stream followed with
 * tasks/get, a host name dialled at its judged address, the auth header sent to the peer only and never shown. Timeouts
 * and bounds on what a peer sends: A2aPeerBoundsTest; company shares of the slots: CompanyFairShareTest.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class A2aPeerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(30);
    private static final int TEN_MB = 10 * 1024 * 1024;
    private static A2aPeerStandIn peers;
    private static A2aPeerStandIn elsewhere;

    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void startPeers() {
        peers = A2aPeerStandIn.start("127.0.0.1");
        elsewhere = A2aPeerStandIn.start("127.0.0.1");
    }

    @AfterAll
    static void stopPeers() {
        peers.close();
        elsewhere.close();
    }

    @Test
    void aStreamingPeerThatCompletesEndsTheRunSucceededWithItsArtifactText() throws Exception {
        AtomicReference<Message> received = new AtomicReference<>();
        peers.agent("streaming", true, executor((context, updater) -> {
            received.set(context.getMessage());
            updater.startWork();
            updater.addArtifact(List.of(new TextPart("3 files changed")));
            updater.addArtifact(List.of(new TextPart("all tests pass")));
            updater.complete();
        }));
        RunRequested run = request(Map.of("url", peers.url("streaming"), "skill", "run"), Map.of(),
                new IssueRef("TRI-7", "Fix the build", "it fails on main"), "be brief");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("3 files changed\nall tests pass");
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, RUNNING, SUCCEEDED);
        RunStatusChanged running = bus.await(run.runId(), RUNNING, END);
        assertThat(running.peerTaskId()).isNotBlank().isEqualTo(end.peerTaskId());
        assertThat(peers.rpcMethods("streaming")).containsExactly("message/stream");
        assertThat(peers.requests("streaming").get(0).path()).isEqualTo("/agents/streaming" + A2aPeerStandIn.CARD);
        Message message = received.get();
        assertThat(message.getRole()).isEqualTo(Message.Role.USER);
        assertThat(message.getParts()).singleElement().satisfies(part -> assertThat(((TextPart) part).getText())
                .isEqualTo("Fix the build\n\nit fails on main\n\nbe brief"));
        assertThat((Object) JSON.valueToTree(message.getMetadata())).isEqualTo(JSON.readTree("{\"trimus\": {\"issue\":"
                + " {\"id\": \"TRI-7\", \"title\": \"Fix the build\", \"body\": \"it fails on main\"},"
                + " \"input\": \"be brief\"}, \"skill\": \"run\"}"));
        assertThat(peers.requests()).noneSatisfy(r -> assertThat(r.path()).startsWith("/card-named/"));
    }

    @Test
    void aPeerThatDoesNotStreamIsPolledAndItsCardIsFoundAtTheHostsWellKnownPath() {
        CountDownLatch polled = new CountDownLatch(1);
        peers.agentWithHostCard("polling", false, executor((context, updater) -> {
            updater.startWork();
            hold(polled);   // held working until the caller has asked with tasks/get
            updater.addArtifact(List.of(new TextPart("polled answer")));
            updater.complete();
        }));
        RunRequested run = request(Map.of("url", peers.url("polling")), Map.of(), null, "go");
        bus.request(run);

        await().atMost(END).until(() -> peers.rpcMethods("polling").contains("tasks/get"));
        assertThat(bus.await(run.runId(), RUNNING, END).peerTaskId()).isNotBlank();
        polled.countDown();
        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("polled answer");
        assertThat(peers.rpcMethods("polling")).startsWith("message/send", "tasks/get").doesNotContain("message/stream");
        assertThat(peers.requests()).anySatisfy(r -> assertThat(r.path()).isEqualTo(A2aPeerStandIn.CARD));
    }

    @Test
    void aStreamThatBreaksBeforeTheFinalStateIsFollowedWithTasksGet() {
        String taskId = UUID.randomUUID().toString();
        peers.raw("breaking", true, (request, rpc) -> {
            Object id = rpc.get("id").isNumber() ? rpc.get("id").asLong() : rpc.get("id").asText();
            if (rpc.path("method").asText().equals("message/stream")) {
                Task working = new Task(taskId, "ctx", new TaskStatus(TaskState.WORKING), List.of(), List.of(), null);
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                        .end("data: " + json(new SendStreamingMessageResponse(id, working)) + "\n\n");
            } else {
                Task done = new Task(taskId, "ctx", new TaskStatus(TaskState.COMPLETED), List.of(new Artifact("out",
                        "output", null, List.of(new TextPart("read back")), null, null)), List.of(), null);
                request.response().putHeader("Content-Type", "application/json")
                        .end(json(new GetTaskResponse(id, done)));
            }
        });
        RunRequested run = request(Map.of("url", peers.url("breaking")), Map.of(), null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("read back");
        assertThat(end.peerTaskId()).isEqualTo(taskId);
        assertThat(end.notes()).containsExactly("the A2A peer's event stream ended before the task's final state;"
                + " following it with tasks/get instead");
        assertThat(peers.rpcMethods("breaking")).containsExactly("message/stream", "tasks/get");
    }

    @Test
    void aHostNameIsResolvedOnceAndDialledWithTheHostHeaderKept() {
        peers.agent("named", false, executor((context, updater) -> {
            updater.addArtifact(List.of(new TextPart("by name")));
            updater.complete();
        }));
        RunRequested run = request(Map.of("url", "http://localhost:" + peers.port() + "/agents/named"), Map.of(),
                null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("by name");
        assertThat(peers.requests("named")).isNotEmpty()
                .allSatisfy(r -> assertThat(r.headers()).containsEntry("host", "localhost:" + peers.port()));
    }

    @Test
    void aPeerAnsweringWithAMessageEndsTheRunSucceededWithItsText() {
        peers.agent("replying", false, new AgentExecutor() {
            @Override
            public void execute(RequestContext context, EventQueue queue) {
                queue.enqueueEvent(new Message.Builder().role(Message.Role.AGENT)
                        .messageId(UUID.randomUUID().toString()).parts(List.of(new TextPart("just a reply"))).build());
            }

            @Override
            public void cancel(RequestContext context, EventQueue queue) {
            }
        });
        RunRequested run = request(Map.of("url", peers.url("replying")), Map.of(), null, "hi");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("just a reply");
    }

    @Test
    void aFailedPeerTaskFailsTheRunWithThePeersReason() {
        peers.agent("failing", true, executor((context, updater) -> updater.fail(updater.newAgentMessage(
                List.of(new TextPart("disk full on the peer")), null))));
        RunRequested run = request(Map.of("url", peers.url("failing")), Map.of(), null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("the A2A peer's task " + end.peerTaskId() + " failed: disk full on the peer");
    }

    @Test
    void aPeerAskingForInputFailsTheRunSayingWhatItAskedFor() {
        peers.agent("asking", true, executor((context, updater) -> updater.requiresInput(updater.newAgentMessage(
                List.of(new TextPart("Which branch should I use?")), null))));
        RunRequested run = request(Map.of("url", peers.url("asking")), Map.of(), null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("the A2A peer's task " + end.peerTaskId() + " asked for more input, which a"
                + " Trimus run cannot give: \"Which branch should I use?\"");
    }

    @Test
    void anAnswerLargerThanTheCapIsCutOffAndFailsTheRun() {
        AtomicLong written = new AtomicLong();
        AtomicBoolean closed = new AtomicBoolean();
        peers.raw("huge", false, (request, rpc) -> {
            HttpServerResponse response = request.response().setChunked(true)
                    .putHeader("Content-Type", "application/json");
            response.closeHandler(v -> closed.set(true));
            Buffer chunk = Buffer.buffer(new byte[64 * 1024]);
            writeUntil(response, chunk, written, TEN_MB);
        });
        RunRequested run = request(Map.of("url", peers.url("huge")), Map.of(), null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("an answer of the A2A peer is larger than 1048576 bytes"
                + " (TRIMUS_A2A_MAX_RESPONSE_BYTES); reading stopped there and the connection was reset");
        await().atMost(END).untilTrue(closed);
        assertThat(written.get()).isLessThan(TEN_MB);
    }

    @Test
    void aRedirectIsNotFollowed() {
        elsewhere.agent("target", false, executor((context, updater) -> updater.complete()));
        String location = elsewhere.url("target");
        peers.raw("moved", false, (request, rpc) -> request.response().setStatusCode(307)
                .putHeader("Location", location).end());
        RunRequested run = request(Map.of("url", peers.url("moved")), Map.of(), null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("the A2A peer answered HTTP 307 redirecting to " + location
                + "; redirects are not followed");
        assertThat(peers.rpcMethods("moved")).containsExactly("message/send");
        assertThat(elsewhere.requests()).isEmpty();
    }

    @Test
    void aLoopbackAddressOutsideTheAllowListIsRefusedBeforeAnythingIsSent() {
        try (A2aPeerStandIn outside = A2aPeerStandIn.start("127.0.0.2")) {
            outside.agent("outside", true, executor((context, updater) -> updater.complete()));
            RunRequested plain = request(Map.of("url", outside.url("outside")), Map.of(), null, "go");
            RunRequested mapped = request(Map.of("url", "http://[::ffff:127.0.0.2]:" + outside.port()
                    + "/agents/outside"), Map.of(), null, "go");
            bus.request(plain);
            bus.request(mapped);

            RunStatusChanged plainEnd = bus.awaitEnd(plain.runId(), END);
            RunStatusChanged mappedEnd = bus.awaitEnd(mapped.runId(), END);

            assertThat(plainEnd.status()).isEqualTo(REJECTED);
            assertThat(plainEnd.error()).isEqualTo("the A2A peer is refused: 127.0.0.2 is a loopback address; an A2A"
                    + " peer must be a public address unless TRIMUS_A2A_ALLOW_PRIVATE covers it");
            assertThat(bus.states(plain.runId())).containsExactly(REJECTED);
            assertThat(mappedEnd.status()).isEqualTo(REJECTED);
            assertThat(mappedEnd.error()).contains("127.0.0.2 is a loopback address");
            assertThat(outside.requests()).isEmpty();
        }
    }

    @Test
    void aCancelStopsTheRunAndCancelsThePeersTask() {
        CountDownLatch cancelled = new CountDownLatch(1);
        peers.agent("holding", true, new AgentExecutor() {
            @Override
            public void execute(RequestContext context, EventQueue queue) {
                TaskUpdater updater = new TaskUpdater(context, queue);
                updater.submit();
                updater.startWork();
                hold(cancelled);
            }

            @Override
            public void cancel(RequestContext context, EventQueue queue) {
                new TaskUpdater(context, queue).cancel();
                cancelled.countDown();
            }
        });
        RunRequested run = request(Map.of("url", peers.url("holding"), "timeout_ms", 120_000), Map.of(), null, "go");
        bus.request(run);
        String taskId = bus.await(run.runId(), RUNNING, END).peerTaskId();

        bus.cancel(run);
        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.error()).isEqualTo("cancelled; the A2A peer's task " + taskId + " was asked to cancel");
        await().atMost(END).until(() -> peers.rpcMethods("holding").contains("tasks/cancel"));
        assertThat(cancelled.getCount()).isZero();
    }

    @Test
    void theAuthHeaderGoesToThePeerOnlyAndIsNeverLoggedOrReported() {
        String token = "Bearer peer-" + UUID.randomUUID();
        peers.agent("echo", false, executor((context, updater) -> {
            @SuppressWarnings("unchecked")
            Map<String, String> headers = (Map<String, String>) context.getCallContext().getState().get("headers");
            updater.addArtifact(List.of(new TextPart("auth=" + headers.get("authorization"))));
            updater.fail(updater.newAgentMessage(List.of(new TextPart("rejected " + headers.get("authorization"))),
                    null));
        }));
        try (CapturedLogs logs = CapturedLogs.install()) {
            RunRequested run = request(Map.of("url", peers.url("echo"),
                            "auth_header", Map.of("name", "Authorization", "secret", "PEER_TOKEN")),
                    Map.of(A2aPeerConfig.AUTH_HEADER_SECRET, token), null, "go");
            bus.request(run);

            RunStatusChanged end = bus.awaitEnd(run.runId(), END);

            assertThat(end.status()).isEqualTo(FAILED);
            assertThat(end.error()).endsWith("failed: rejected [REDACTED]");
            assertThat(peers.requests("echo")).filteredOn(r -> r.rpcMethod() != null).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.headers()).containsEntry("authorization", token));
            assertThat(peers.requests("echo")).filteredOn(r -> r.rpcMethod() == null)
                    .allSatisfy(r -> assertThat(r.headers()).doesNotContainKey("authorization"));
            assertThat(logs.lines()).anySatisfy(line -> assertThat(line).contains(run.runId().toString()));
            assertThat(logs.lines()).noneSatisfy(line -> assertThat(line).contains(token.substring(7)));
            assertThat(bus.events(run.runId())).noneSatisfy(e -> assertThat(String.valueOf(e.output())
                    + e.error() + e.notes()).contains(token.substring(7)));
        }
    }

    @Test
    void aRunWhoseAuthSecretIsMissingIsRejectedWithoutACall() {
        peers.agent("keyless", false, executor((context, updater) -> updater.complete()));
        RunRequested run = request(Map.of("url", peers.url("keyless"),
                "auth_header", Map.of("name", "Authorization", "secret", "PEER_TOKEN")), Map.of(), null, "go");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).contains("Authorization").contains("PEER_TOKEN");
        assertThat(peers.requests("keyless")).isEmpty();
    }

    private static RunRequested request(Map<String, ?> a2a, Map<String, String> plain, IssueRef issue, String s) {
        return A2aRuns.request(COMPANY, a2a, plain, issue, s);
    }
}
