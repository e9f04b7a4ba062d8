package io.trimus.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.spi.interceptors.ClientCallContext;
import io.a2a.spec.A2AClientException;
import io.a2a.spec.AgentCard;
import io.a2a.spec.HTTPAuthSecurityScheme;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

/**
 * run-service serves a published agent over A2A: publishing and its refusals, the agent card, message/send starting a
 * run exactly as the REST API does, tasks/get showing each run state as its task state, tasks/cancel, and streams,
 * spoken to by the A2A SDK's own JSON-RPC client; the adapter is played by status events on trimus.run.status. What a
 * stream holds and how long: {@link A2aStreamsTest}.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class A2aServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KafkaTopics kafka = KafkaTopics.shared();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A published agent: its company, its id, a member token of its company and its A2A url. */
    record Published(String company, String agent, String member, String url) {
    }

    static Published published() {
        String company = Api.createCompany("A2A " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest",
                "command", List.of("cat")));
        String url = given().contentType(ContentType.JSON).body(Map.of("published", true))
                .put("/api/companies/{c}/agents/{a}/a2a", company, agent).then().statusCode(200)
                .body("published", equalTo(true)).extract().path("url");
        return new Published(company, agent, AccessTableTest.token(company, "member"), url);
    }

    private static String base() {
        return RestAssured.baseURI + ":" + RestAssured.port;
    }

    private JSONRPCTransport client(Published agent) throws Exception {
        AgentCard card = Utils.OBJECT_MAPPER.readValue(cardOf(agent.company, agent.agent).body(), AgentCard.class);
        return new JSONRPCTransport(new JdkA2AHttpClient(), card, agent.url, List.of());
    }

    private static ClientCallContext as(String token) {
        return new ClientCallContext(Map.of(), Map.of("Authorization", "Bearer " + token));
    }

    private HttpResponse<String> cardOf(String company, String agent) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + "/a2a/companies/" + company + "/agents/" + agent
                + "/.well-known/agent-card.json")).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String company, String agent, String authorization, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + "/a2a/companies/" + company
                + "/agents/" + agent)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Message text(String text) {
        return new Message.Builder().role(Message.Role.USER).parts(new TextPart(text)).build();
    }

    private static MessageSendParams params(Message message) {
        return new MessageSendParams.Builder().message(message)
                .configuration(new MessageSendConfiguration.Builder().blocking(false).build()).build();
    }

    /** Plays the adapter: a status event of the run on trimus.run.status. */
    static void report(Published agent, String run, String status, Map<String, String> fields) {
        ObjectNode event = JSON.createObjectNode().put("id", UUID.randomUUID().toString()).put("run_id", run)
                .put("company_id", agent.company).put("agent_id", agent.agent).put("status", status)
                .put("occurred_at", Instant.now().toString());
        fields.forEach(event::put);
        kafka.produce(Topics.RUN_STATUS, run, event.toString());
    }

    private static TaskState awaitState(JSONRPCTransport client, Published agent, String task, TaskState state) {
        return await().atMost(Duration.ofSeconds(30)).until(
                () -> client.getTask(new TaskQueryParams(task), as(agent.member)).getStatus().state(), state::equals);
    }

    @Test
    void aHostileHostHeaderDoesNotChooseWhereTheCardSendsCallers() {
        Published agent = published();
        String expected = base() + "/a2a/companies/" + agent.company + "/agents/" + agent.agent;
        assertThat(agent.url).isEqualTo(expected);
        for (String header : List.of("Host", "X-Forwarded-Host", "Forwarded")) {
            String value = header.equals("Forwarded") ? "host=attacker.example;proto=https" : "attacker.example:8443";
            given().header("Authorization", "").header(header, value)
                    .get("/a2a/companies/{c}/agents/{a}/.well-known/agent-card.json", agent.company, agent.agent)
                    .then().statusCode(200).body("url", equalTo(expected));
            given().header(header, value).get("/api/companies/{c}/agents/{a}/a2a", agent.company, agent.agent)
                    .then().statusCode(200).body("url", equalTo(expected))
                    .body("card_url", equalTo(expected + "/.well-known/agent-card.json"));
        }
    }

    @Test
    void anAdminPublishesAndWithdrawsAnAgentAndOnlyAPublishedOneHasACard() throws Exception {
        String company = Api.createCompany("A2A publish " + UUID.randomUUID());
        String agent = Api.createDockerAgent(company, Map.of("image", "trimus-test/busybox:latest"));
        String viewer = AccessTableTest.token(company, "viewer");
        String member = AccessTableTest.token(company, "member");
        String expectedUrl = base() + "/a2a/companies/" + company + "/agents/" + agent;
        assertThat(cardOf(company, agent).statusCode()).isEqualTo(404);

        given().contentType(ContentType.JSON).body(Map.of("published", true))
                .put("/api/companies/{c}/agents/{a}/a2a", company, agent).then().statusCode(200)
                .body("published", equalTo(true)).body("url", equalTo(expectedUrl))
                .body("card_url", equalTo(expectedUrl + "/.well-known/agent-card.json"));
        given().header("Authorization", "Bearer " + viewer).get("/api/companies/{c}/agents/{a}/a2a", company, agent)
                .then().statusCode(200).body("published", equalTo(true));

        HttpResponse<String> card = cardOf(company, agent);
        assertThat(card.statusCode()).isEqualTo(200);
        AgentCard parsed = Utils.OBJECT_MAPPER.readValue(card.body(), AgentCard.class);
        assertThat(parsed.name()).isEqualTo("builder");
        assertThat(parsed.url()).isEqualTo(expectedUrl);
        assertThat(parsed.protocolVersion()).isEqualTo("0.3.0");
        assertThat(parsed.preferredTransport()).isEqualTo("JSONRPC");
        assertThat(parsed.capabilities().streaming()).isTrue();
        assertThat(parsed.capabilities().pushNotifications()).isFalse();
        assertThat(parsed.defaultInputModes()).containsExactly("text/plain");
        assertThat(parsed.skills()).extracting(s -> s.id()).containsExactly("run");
        assertThat(parsed.securitySchemes().get("bearer")).isInstanceOfSatisfying(HTTPAuthSecurityScheme.class,
                scheme -> assertThat(scheme.getScheme()).isEqualTo("bearer"));
        assertThat(parsed.security()).containsExactly(Map.of("bearer", List.of()));
        assertThat(Db.texts("select action from run.audit_record where company_id = ?::uuid"
                + " and action = 'agent.a2a_published'", company)).hasSize(1);

        given().header("Authorization", "Bearer " + member).contentType(ContentType.JSON)
                .body(Map.of("published", false)).put("/api/companies/{c}/agents/{a}/a2a", company, agent)
                .then().statusCode(403);
        given().contentType(ContentType.JSON).body(Map.of())
                .put("/api/companies/{c}/agents/{a}/a2a", company, agent).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("published"));
        given().contentType(ContentType.JSON).body(Map.of("published", true))
                .put("/api/companies/{c}/agents/{a}/a2a", company, UUID.randomUUID()).then().statusCode(404)
                .contentType("application/problem+json");

        given().contentType(ContentType.JSON).body(Map.of("published", false))
                .put("/api/companies/{c}/agents/{a}/a2a", company, agent).then().statusCode(200)
                .body("published", equalTo(false)).body("url", endsWith(agent));
        HttpResponse<String> gone = cardOf(company, agent);
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(gone.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(cardOf(company, UUID.randomUUID().toString()).body()).doesNotContain("does not exist");
    }

    @Test
    void messageSendStartsARunAndTasksGetShowsEachStateOfIt() throws Exception {
        Published agent = published();
        JSONRPCTransport client = client(agent);
        Message withIssue = new Message.Builder().role(Message.Role.USER).parts(new TextPart("Fix it\n\nnow"))
                .contextId("ctx-1").metadata(Map.of("trimus", Map.of("issue", Map.of("id", "ISS-7", "title",
                        "Fix it"), "input", "now"))).build();
        Task task = (Task) client.sendMessage(params(withIssue), as(agent.member));
        assertThat(task.getStatus().state()).isEqualTo(TaskState.SUBMITTED);
        assertThat(task.getContextId()).isEqualTo("ctx-1");
        String run = task.getId();
        Api.getRun(agent.company, run).statusCode(200).body("agent_id", equalTo(agent.agent))
                .body("issue.id", equalTo("ISS-7")).body("issue.title", equalTo("Fix it"))
                .body("issue.body", equalTo(null));
        assertThat(inputOf(run)).isEqualTo("now");
        kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        Task repeated = (Task) client.sendMessage(params(withIssue), as(agent.member));
        assertThat(repeated.getId()).as("the same messageId again answers the run it started").isEqualTo(run);
        assertThat(Db.texts("select id::text from run.run where agent_id = ?::uuid", agent.agent)).hasSize(1);

        report(agent, run, "RUNNING", Map.of("peer_task_id", "peer-task-1"));
        awaitState(client, agent, run, TaskState.WORKING);
        report(agent, run, "RUNNING", Map.of("peer_task_id", "peer-task-2"));
        report(agent, run, "SUCCEEDED", Map.of("output", "all fixed"));
        awaitState(client, agent, run, TaskState.COMPLETED);
        Task done = client.getTask(new TaskQueryParams(run), as(agent.member));
        assertThat(done.getContextId()).isEqualTo("ctx-1");
        assertThat(done.getArtifacts()).singleElement().satisfies(artifact -> {
            assertThat(artifact.artifactId()).isEqualTo(run);
            assertThat(artifact.name()).isEqualTo("output");
            assertThat(artifact.parts()).singleElement().isInstanceOfSatisfying(TextPart.class,
                    part -> assertThat(part.getText()).isEqualTo("all fixed"));
        });
        Api.getRun(agent.company, run).body("peer_task_id", equalTo("peer-task-1"));
        assertThat(done.getHistory()).as("the history is the message that started the task").singleElement()
                .satisfies(first -> {
                    assertThat(first.getRole()).isEqualTo(Message.Role.USER);
                    assertThat(first.getMessageId()).isEqualTo(withIssue.getMessageId());
                    assertThat(first.getParts()).singleElement().isInstanceOfSatisfying(TextPart.class,
                            part -> assertThat(part.getText()).isEqualTo("now"));
                });
        assertThat(client.getTask(new TaskQueryParams(run, 1), as(agent.member)).getHistory()).hasSize(1);

        Task plain = (Task) client.sendMessage(params(new Message.Builder().role(Message.Role.USER)
                .parts(new TextPart("line one"), new TextPart("line two")).build()), as(agent.member));
        Api.getRun(agent.company, plain.getId()).statusCode(200).body("issue", equalTo(null));
        assertThat(inputOf(plain.getId())).isEqualTo("line one\nline two");
        assertThat(plain.getContextId()).isNotBlank();
    }

    @Test
    void aBlockingMessageSendAnswersOnceTheRunHasEnded() throws Exception {
        Published agent = published();
        var answer = http.sendAsync(HttpRequest.newBuilder(URI.create(agent.url))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + agent.member)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":"
                        + "\"message/send\",\"params\":{\"configuration\":{\"blocking\":true},\"message\":"
                        + "{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"b1\",\"parts\":[{\"kind\":\"text\","
                        + "\"text\":\"wait for me\"}]}}}")).build(), HttpResponse.BodyHandlers.ofString());
        String run = await().atMost(Duration.ofSeconds(20)).until(() -> Db.texts("select id::text from run.run"
                + " where agent_id = ?::uuid", agent.agent), ids -> ids.size() == 1).get(0);
        kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        assertThat(answer).isNotDone();
        report(agent, run, "SUCCEEDED", Map.of("output", "waited"));
        JsonNode task = JSON.readTree(answer.get(30, java.util.concurrent.TimeUnit.SECONDS).body());
        assertThat(task.at("/result/id").asText()).isEqualTo(run);
        assertThat(task.at("/result/status/state").asText()).isEqualTo("completed");
        assertThat(task.at("/result/artifacts/0/parts/0/text").asText()).isEqualTo("waited");
    }

    /**
     * A caller that sends one message many times at once (a retrying client, a proxy that repeats) starts one run: a
     * lookup before the insert let two copies arriving together both start one; the unique index decides, and every
     * copy answers the same task.
     */
    @Test
    void copiesOfOneMessageSentAtTheSameMomentStartOneRun() throws Exception {
        Published agent = published();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
                + "{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"once-" + UUID.randomUUID()
                + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"only once\"}]}}}";
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> copies = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            copies.add(http.sendAsync(HttpRequest.newBuilder(URI.create(agent.url))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + agent.member)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()));
        }

        java.util.Set<String> tasks = new java.util.HashSet<>();
        for (var copy : copies) {
            JsonNode answer = JSON.readTree(copy.get(30, java.util.concurrent.TimeUnit.SECONDS).body());
            assertThat(answer.has("error")).as(answer.toString()).isFalse();
            tasks.add(answer.at("/result/id").asText());
        }
        assertThat(tasks).hasSize(1);
        assertThat(Db.texts("select id::text from run.run where agent_id = ?::uuid", agent.agent))
                .containsExactlyElementsOf(tasks);
        assertThat(kafka.recordsAfter(Topics.RUN_REQUESTED, tasks.iterator().next(), Duration.ofSeconds(2)))
                .as("one run request published").hasSize(1);
    }

    private static String inputOf(String run) {
        return Db.texts("select input from run.run where id = ?::uuid", run).get(0);
    }

    @Test
    void failedTimedOutAndCancelledRunsShowAsFailedWithTheirReasonAndCanceled() throws Exception {
        Published agent = published();
        JSONRPCTransport client = client(agent);
        String failing = ((Task) client.sendMessage(params(text("a")), as(agent.member))).getId();
        String slow = ((Task) client.sendMessage(params(text("b")), as(agent.member))).getId();
        String cancelled = ((Task) client.sendMessage(params(text("c")), as(agent.member))).getId();
        for (String run : List.of(failing, slow, cancelled)) {
            kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        }
        report(agent, failing, "FAILED", Map.of("error", "exit code 3"));
        report(agent, slow, "TIMED_OUT", Map.of("error", "no end after 60 s"));
        awaitState(client, agent, failing, TaskState.FAILED);
        awaitState(client, agent, slow, TaskState.FAILED);
        assertThat(reason(client.getTask(new TaskQueryParams(failing), as(agent.member)))).isEqualTo("exit code 3");
        assertThat(reason(client.getTask(new TaskQueryParams(slow), as(agent.member))))
                .isEqualTo("timed out: no end after 60 s");

        // tasks/cancel answers the cancelled task (the conformance kit's test_tasks_cancel_valid): it waits for the
        // adapter, played here, to report the run CANCELLED
        var cancelling = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return client.cancelTask(new TaskIdParams(cancelled), as(agent.member));
            } catch (A2AClientException e) {
                throw new IllegalStateException(e);
            }
        });
        kafka.awaitRecord(Topics.RUN_CANCEL, cancelled);
        assertThat(cancelling).as("no answer before the run has ended").isNotDone();
        report(agent, cancelled, "CANCELLED", Map.of());
        assertThat(cancelling.get(30, java.util.concurrent.TimeUnit.SECONDS).getStatus().state())
                .isEqualTo(TaskState.CANCELED);
        assertThatThrownBy(() -> client.cancelTask(new TaskIdParams(cancelled), as(agent.member)))
                .isInstanceOfSatisfying(A2AClientException.class, e -> assertThat(e.getMessage()).contains("ended"));

        Published other = published();
        assertThatThrownBy(() -> client.getTask(new TaskQueryParams(failing), as(other.member)))
                .isInstanceOf(A2AClientException.class);
        JsonNode notFound = JSON.readTree(post(agent.company, agent.agent, "Bearer " + agent.member,
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tasks/get\",\"params\":{\"id\":\"" + UUID.randomUUID()
                        + "\"}}").body());
        assertThat(notFound.at("/error/code").asInt()).isEqualTo(-32001);
        assertThat(notFound.path("id").asInt()).isEqualTo(5);
    }

    private static String reason(Task task) {
        return ((TextPart) task.getStatus().message().getParts().get(0)).getText();
    }

    @Test
    void messageStreamDeliversTheTaskThenEachChangeAndEndsWithTheFinalOne() throws Exception {
        Published agent = published();
        JSONRPCTransport client = client(agent);
        List<StreamingEventKind> events = new CopyOnWriteArrayList<>();
        List<Throwable> ended = new CopyOnWriteArrayList<>();
        client.sendMessageStreaming(params(text("stream me")), events::add,
                error -> ended.add(error == null ? new RuntimeException("completed") : error), as(agent.member));
        await().atMost(Duration.ofSeconds(30)).until(() -> !events.isEmpty());
        Task first = (Task) events.get(0);
        assertThat(first.getStatus().state()).isEqualTo(TaskState.SUBMITTED);
        String run = first.getId();
        kafka.awaitRecord(Topics.RUN_REQUESTED, run);

        report(agent, run, "RUNNING", Map.of());
        await().atMost(Duration.ofSeconds(30)).until(() -> events.size() >= 2);
        report(agent, run, "SUCCEEDED", Map.of("output", "streamed"));
        await().atMost(Duration.ofSeconds(30)).until(() -> events.size() >= 4);

        assertThat(events).hasSize(4);
        assertThat(((TaskStatusUpdateEvent) events.get(1)).getStatus().state()).isEqualTo(TaskState.WORKING);
        assertThat(((TaskStatusUpdateEvent) events.get(1)).isFinal()).isFalse();
        TaskArtifactUpdateEvent artifact = (TaskArtifactUpdateEvent) events.get(2);
        assertThat(((TextPart) artifact.getArtifact().parts().get(0)).getText()).isEqualTo("streamed");
        TaskStatusUpdateEvent last = (TaskStatusUpdateEvent) events.get(3);
        assertThat(last.getStatus().state()).isEqualTo(TaskState.COMPLETED);
        assertThat(last.isFinal()).isTrue();

        HttpResponse<String> resubscribed = post(agent.company, agent.agent, "Bearer " + agent.member,
                "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"" + run
                        + "\"}}");
        assertThat(resubscribed.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        List<JsonNode> data = resubscribed.body().lines().filter(line -> line.startsWith("data: "))
                .map(line -> readTree(line.substring(6))).toList();
        assertThat(data).extracting(node -> node.at("/result/kind").asText())
                .containsExactly("task", "artifact-update", "status-update");
        assertThat(data.get(2).at("/result/final").asBoolean()).isTrue();
    }

    private static JsonNode readTree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void callsWithoutTheRightTokenToAnUnpublishedAgentTooLargeOrMalformedAreRefused() throws Exception {
        Published agent = published();
        Published other = published();
        String viewer = AccessTableTest.token(agent.company, "viewer");
        String send = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
                + "{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"m1\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}}}";

        HttpResponse<String> anonymous = post(agent.company, agent.agent, null, send);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).isPresent();
        assertThat(post(agent.company, agent.agent, "Bearer " + other.member, send).statusCode()).isEqualTo(404);
        assertThat(post(agent.company, agent.agent, "Bearer " + viewer, send).statusCode()).isEqualTo(403);
        String unpublished = Api.createDockerAgent(agent.company, Map.of("image", "trimus-test/busybox:latest"));
        HttpResponse<String> notServed = post(agent.company, unpublished, "Bearer " + agent.member, send);
        assertThat(notServed.statusCode()).isEqualTo(404);
        assertThat(notServed.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        HttpResponse<String> huge = post(agent.company, agent.agent, "Bearer " + agent.member,
                "{\"pad\":\"" + "x".repeat(1024 * 1024) + "\"}");
        assertThat(huge.statusCode()).isEqualTo(413);
        assertThat(huge.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(huge.body()).as("refused on its Content-Length, before the body was read")
                .contains("declares 1048586 bytes (Content-Length)").contains("TRIMUS_A2A_MAX_REQUEST_BYTES");
        assertThat(Api.listRuns(agent.company).statusCode(200).extract().jsonPath().getList("$")).isEmpty();

        assertThat(rpcError(agent, "{not json").path("code").asInt()).isEqualTo(-32700);
        assertThat(rpcError(agent, "{\"id\":2,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}")
                .path("code").asInt()).isEqualTo(-32600);
        assertThat(rpcError(agent, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/explode\"}").path("code")
                .asInt()).isEqualTo(-32601);
        assertThat(rpcError(agent, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"message/send\",\"params\":"
                + "{\"message\":{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"m\",\"parts\":[]}}}")
                .path("code").asInt()).isEqualTo(-32602);
        JsonNode otherSkill = rpcError(agent, send.replace("\"parts\"", "\"metadata\":{\"skill\":\"deploy\"},\"parts\""));
        assertThat(otherSkill.path("code").asInt()).isEqualTo(-32602);
        assertThat(otherSkill.path("message").asText()).contains("one skill, \"run\"");
        assertThat(rpcError(agent, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tasks/pushNotificationConfig/set\","
                + "\"params\":{\"taskId\":\"t\",\"pushNotificationConfig\":{\"url\":\"http://x\"}}}")
                .path("code").asInt()).isEqualTo(-32003);
        JsonNode withId = JSON.readTree(post(agent.company, agent.agent, "Bearer " + agent.member,
                "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"tasks/explode\"}").body());
        assertThat(withId.path("id").asText()).isEqualTo("abc");
        assertThat(Api.listRuns(agent.company).statusCode(200).extract().jsonPath().getList("$")).isEmpty();

        JsonNode accepted = JSON.readTree(post(agent.company, agent.agent, "Bearer " + agent.member, send).body());
        assertThat(accepted.at("/result/kind").asText()).as("the same request from a member of the company")
                .isEqualTo("task");
    }

    private JsonNode rpcError(Published agent, String body) throws Exception {
        HttpResponse<String> response = post(agent.company, agent.agent, "Bearer " + agent.member, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).path("error");
    }
}
