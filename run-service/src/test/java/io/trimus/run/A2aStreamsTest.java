package io.trimus.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.restassured.RestAssured.given;
import static io.trimus.run.A2aServerTest.published;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An A2A stream (and a blocking message/send) lasts only while its caller may call: run-service asks again who the
 * caller is every second here ({@code %test.trimus.streams.recheck}, 30 s by default), exactly as for a new request, so
 * a revoked token, a member whose role was lowered to viewer and a removed member stop getting events. What one
 * credential (10, the default) and one company (20) hold open at once is counted, blocking sends included, and a
 * place comes back when its stream ends.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class A2aStreamsTest {
    private static final KafkaTopics kafka = KafkaTopics.shared();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration RECHECKS = Duration.ofSeconds(3);
    private static final Duration ENDS_WITHIN = Duration.ofSeconds(10);
    private static final int MAX_PER_CALLER = 10;
    private static final int MAX_PER_COMPANY = 20;
    private static final String PASSWORD = "correct horse battery staple";

    @Test
    void aStreamEndsOnceItsTokenIsRevokedItsRoleLoweredOrItsMembershipRemovedAndGetsNoLaterEvent() throws Exception {
        A2aServerTest.Published agent = published();
        String run = startTask(agent);
        var token = given().contentType(ContentType.JSON).body(Map.of("name", "streamer", "role", "member"))
                .post("/api/companies/{c}/tokens", agent.company()).then().statusCode(201).extract();
        String lowered = newMember(agent.company());
        String removed = newMember(agent.company());
        String resubscribe = resubscribe(run);
        try (Stream byToken = Stream.open(agent.url(), "Bearer " + token.path("token"), resubscribe);
             Stream byLowered = Stream.open(agent.url(), "Bearer " + signIn(lowered), resubscribe);
             Stream byRemoved = Stream.open(agent.url(), "Bearer " + signIn(removed), resubscribe);
             Stream control = Stream.open(agent.url(), "Bearer " + agent.member(), resubscribe)) {
            List<Stream> ending = List.of(byToken, byLowered, byRemoved);
            await().during(RECHECKS).atMost(RECHECKS.plusSeconds(5))
                    .until(() -> ending.stream().noneMatch(Stream::ended));

            given().delete("/api/companies/{c}/tokens/{t}", agent.company(), token.path("id")).then().statusCode(204);
            given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                    .put("/api/companies/{c}/members/{e}", agent.company(), lowered).then().statusCode(200);
            given().delete("/api/companies/{c}/members/{e}", agent.company(), removed).then().statusCode(204);
            await().atMost(ENDS_WITHIN).untilAsserted(() -> {
                assertThat(byToken.ended()).as("the revoked token's stream ended").isTrue();
                assertThat(byLowered.ended()).as("the stream of the member lowered to viewer ended").isTrue();
                assertThat(byRemoved.ended()).as("the removed member's stream ended").isTrue();
            });

            A2aServerTest.report(agent, run, "RUNNING", Map.of());
            await().atMost(Duration.ofSeconds(30)).until(() -> control.lines().stream()
                    .anyMatch(line -> line.contains("\"state\":\"working\"")));
            assertThat(ending).allSatisfy(stream -> assertThat(stream.lines())
                    .noneMatch(line -> line.contains("\"state\":\"working\"")));
            assertThat(control.ended()).isFalse();
        }
    }

    @Test
    void oneCredentialHoldsAtMostTenStreamsOrBlockingSendsAndGetsAPlaceBackWhenOneEnds() throws Exception {
        A2aServerTest.Published agent = published();
        String run = startTask(agent);
        String caller = "Bearer " + AccessTableTest.token(agent.company(), "member");
        String resubscribe = resubscribe(run);
        List<Stream> open = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_PER_CALLER; i++) {
                open.add(Stream.open(agent.url(), caller, resubscribe));
            }
            assertThat(firstLine(agent.url(), caller, resubscribe)).contains("\"error\"")
                    .contains("TRIMUS_STREAMS_MAX_PER_CALLER");
            String blocking = post(agent.url(), caller, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"message/send\","
                    + "\"params\":{\"configuration\":{\"blocking\":true},\"message\":{\"kind\":\"message\",\"role\":"
                    + "\"user\",\"messageId\":\"" + UUID.randomUUID() + "\",\"parts\":[{\"kind\":\"text\",\"text\":"
                    + "\"wait\"}]}}}");
            assertThat(blocking).contains("\"error\"").contains("TRIMUS_STREAMS_MAX_PER_CALLER");
            // tasks/cancel waits for the run to end, so it holds a place too: refused, and nothing is cancelled
            String cancel = post(agent.url(), caller, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/cancel\","
                    + "\"params\":{\"id\":\"" + run + "\"}}");
            assertThat(cancel).contains("\"error\"").contains("TRIMUS_STREAMS_MAX_PER_CALLER");
            assertThat(Api.runStatus(agent.company(), run)).isNotEqualTo("CANCELLED");
            assertThat(Db.texts("select id::text from run.run where agent_id = ?::uuid", agent.agent()))
                    .as("a refused blocking send starts no run").containsExactly(run);
            assertThat(opensAndCloses(agent.url(), "Bearer " + agent.member(), resubscribe)).as("another credential")
                    .isTrue();

            open.remove(0).close();
            await().atMost(ENDS_WITHIN).until(() -> opensAndCloses(agent.url(), caller, resubscribe));
        } finally {
            open.forEach(Stream::close);
        }
    }

    @Test
    void aCompanyHoldsAtMostTwentyStreamsAndAStreamWhoseCallerLeftGivesItsPlaceBack() throws Exception {
        A2aServerTest.Published agent = published();
        String run = startTask(agent);
        String resubscribe = resubscribe(run);
        List<Stream> open = new ArrayList<>();
        try {
            for (int caller = 0; caller < MAX_PER_COMPANY / MAX_PER_CALLER; caller++) {
                String token = "Bearer " + AccessTableTest.token(agent.company(), "member");
                for (int i = 0; i < MAX_PER_CALLER; i++) {
                    open.add(Stream.open(agent.url(), token, resubscribe));
                }
            }
            assertThat(firstLine(agent.url(), "Bearer " + agent.member(), resubscribe)).contains("\"error\"")
                    .contains("20 A2A streams and blocking sends open");
        } finally {
            open.forEach(Stream::close);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> opensAndCloses(agent.url(), "Bearer " + agent.member(), resubscribe));
    }

    /**
     * A stream's first event (the task) comes at once, and while the run is quiet a keep-alive comes every
     * TRIMUS_A2A_STREAM_KEEPALIVE (1 s here, 5 s by default): the conformance kit's stream client read nothing for
     * its whole 10 s read timeout while a run was live.
     */
    @Test
    void aStreamSendsItsFirstEventAtOnceAndKeepAlivesWhileTheRunIsQuiet() throws Exception {
        A2aServerTest.Published agent = published();
        String run = startTask(agent);
        long opened = System.nanoTime();
        try (Stream stream = Stream.open(agent.url(), "Bearer " + agent.member(), resubscribe(run))) {
            assertThat(Duration.ofNanos(System.nanoTime() - opened)).as("the first event").isLessThan(
                    Duration.ofSeconds(2));
            assertThat(stream.firstLine()).startsWith("data: ").contains("\"kind\":\"task\"");
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.lines().stream()
                    .filter(line -> line.equals(": keep-alive")).count() >= 2);
            assertThat(stream.ended()).isFalse();

            A2aServerTest.report(agent, run, "SUCCEEDED", Map.of("output", "done"));
            await().atMost(Duration.ofSeconds(10)).until(stream::ended);
            assertThat(stream.lines()).anyMatch(line -> line.contains("\"final\":true"));
        }
    }

    /**
     * A stream is told of each change of its run by the status consumer, not by its own safety poll (30 s here,
     * {@code %test.trimus.a2a.stream-poll-interval}): RUNNING and then SUCCEEDED reach it within seconds of their
     * status events, and so does a blocking send's answer.
     */
    @Test
    void eachChangeIsPushedToTheStreamsAndWaitsOfItsRunLongBeforeTheirSafetyPoll() throws Exception {
        A2aServerTest.Published agent = published();
        String run = startTask(agent);
        try (Stream stream = Stream.open(agent.url(), "Bearer " + agent.member(), resubscribe(run))) {
            A2aServerTest.report(agent, run, "RUNNING", Map.of());
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.lines().stream()
                    .anyMatch(line -> line.contains("\"state\":\"working\"")));
            A2aServerTest.report(agent, run, "SUCCEEDED", Map.of("output", "pushed"));
            await().atMost(Duration.ofSeconds(5)).until(stream::ended);
            assertThat(stream.lines()).anyMatch(line -> line.contains("\"final\":true")
                    && line.contains("\"state\":\"completed\""));
        }

        A2aServerTest.Published waiter = published();
        var answer = HTTP.sendAsync(request(waiter.url(), "Bearer " + waiter.member(), "{\"jsonrpc\":\"2.0\",\"id\":2,"
                + "\"method\":\"message/send\",\"params\":{\"configuration\":{\"blocking\":true},\"message\":{"
                + "\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"" + UUID.randomUUID() + "\",\"parts\":"
                + "[{\"kind\":\"text\",\"text\":\"wait\"}]}}}"), HttpResponse.BodyHandlers.ofString());
        String blocked = await().atMost(Duration.ofSeconds(20)).until(() -> Db.texts("select id::text from run.run"
                + " where agent_id = ?::uuid", waiter.agent()), ids -> ids.size() == 1).get(0);
        kafka.awaitRecord(Topics.RUN_REQUESTED, blocked);
        A2aServerTest.report(waiter, blocked, "SUCCEEDED", Map.of("output", "pushed"));
        String task = answer.get(5, java.util.concurrent.TimeUnit.SECONDS).body();
        assertThat(JSON.readTree(task).at("/result/status/state").asText()).isEqualTo("completed");
    }

    /** A task of the agent that stays submitted (no adapter takes it), started by message/send. */
    private static String startTask(A2aServerTest.Published agent) throws Exception {
        String answer = post(agent.url(), "Bearer " + agent.member(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                + "\"message/send\",\"params\":{\"message\":{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\""
                + UUID.randomUUID() + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"long\"}]}}}");
        String run = JSON.readTree(answer).at("/result/id").asText();
        kafka.awaitRecord(Topics.RUN_REQUESTED, run);
        return run;
    }

    private static String resubscribe(String task) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"" + task + "\"}}";
    }

    /** A new person with the member role in {@code company}, its password set; its email. */
    private static String newMember(String company) {
        String email = "a2a-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        String setup = given().contentType(ContentType.JSON).body(Map.of("role", "member"))
                .put("/api/companies/{c}/members/{e}", company, email).then().statusCode(200)
                .extract().path("setup_url");
        given().contentType(ContentType.JSON).body(Map.of("token", URI.create(setup).getFragment(),
                "password", PASSWORD)).post("/api/setup").then().statusCode(200);
        return email;
    }

    private static String signIn(String email) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", PASSWORD)).post("/api/sessions").then().statusCode(201)
                .extract().path("token");
    }

    private static String post(String url, String authorization, String body) throws Exception {
        return HTTP.send(request(url, authorization, body), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static boolean opensAndCloses(String url, String authorization, String body) throws Exception {
        return firstLine(url, authorization, body).contains("\"kind\":\"task\"");
    }

    /** The first line of a stream's answer (its first event, or the error that refused it); then closes it. */
    private static String firstLine(String url, String authorization, String body) throws Exception {
        try (Stream stream = Stream.tryOpen(url, authorization, body)) {
            return stream.firstLine();
        }
    }

    private static HttpRequest request(String url, String authorization, String body) {
        return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .header("Authorization", authorization).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /** An open A2A event stream: its lines as they are read, and whether the server ended it. */
    private static final class Stream implements AutoCloseable {
        private final InputStream body;
        private final String firstLine;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final AtomicBoolean ended = new AtomicBoolean();

        private Stream(InputStream body) throws IOException {
            this.body = body;
            BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
            this.firstLine = String.valueOf(reader.readLine());
            lines.add(firstLine);
            Thread thread = new Thread(() -> {
                try {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException closed) {
                    // the test closed the stream
                } finally {
                    ended.set(true);
                }
            }, "a2a-stream-reader");
            thread.setDaemon(true);
            thread.start();
        }

        /** Opens the stream and checks it began with the task. */
        static Stream open(String url, String authorization, String body) throws Exception {
            Stream stream = tryOpen(url, authorization, body);
            assertThat(stream.firstLine()).contains("\"kind\":\"task\"");
            return stream;
        }

        static Stream tryOpen(String url, String authorization, String body) throws Exception {
            return new Stream(HTTP.send(request(url, authorization, body), HttpResponse.BodyHandlers.ofInputStream())
                    .body());
        }

        String firstLine() {
            return firstLine;
        }

        List<String> lines() {
            return lines;
        }

        boolean ended() {
            return ended.get();
        }

        @Override
        public void close() {
            try {
                body.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
