package io.trimus.egress.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.EgressAnomaly;
import io.trimus.testing.RunServiceResource;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static io.trimus.egress.api.AnomalyTopic.anomaly;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The live anomaly stream: a company's anomalies once each as they are persisted, for as long as its caller may read
 * them. The caller is asked again every second here ({@code %test.trimus.streams.recheck}, 30 s by default), through
 * run-service as any request is, so a revoked token or a removed member's session ends the stream; one credential
 * holds at most 10 streams (the default) and gets its place back when one ends.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = RunServiceResource.class, scope = TestResourceScope.GLOBAL)
class AnomalyStreamTest {
    private static final Duration FIRST = Duration.ofSeconds(30);
    private static final Duration RECHECKS = Duration.ofSeconds(3);
    private static final Duration ENDS_WITHIN = Duration.ofSeconds(10);
    private static final int MAX_PER_CALLER = 10;

    @TestHTTPResource("/")
    URL base;

    @Test
    void theStreamDeliversTheCompanysAnomaliesAsTheyArePersistedEachOnce() throws Exception {
        UUID company = UUID.randomUUID();
        EgressAnomaly first = anomaly(company, "live.example", 4, Instant.now());
        EgressAnomaly foreign = anomaly(UUID.randomUUID(), "elsewhere.example");
        EgressAnomaly second = anomaly(company, "second.example");

        URI streamUri = URI.create(base + "api/companies/" + company + "/egress/anomalies/stream");
        try (SseClient stream = SseClient.open(streamUri);
             AnomalyTopic topic = new AnomalyTopic()) {
            assertThat(stream.contentType).startsWith("text/event-stream");
            stream.awaitLine(": stream open", Duration.ofSeconds(10));

            topic.publish(foreign, first);
            SseEvent received = stream.nextEvent(FIRST);
            topic.publish(first, second); // the duplicate must not be streamed again
            SseEvent next = stream.nextEvent(Duration.ofSeconds(10));

            assertThat(received.name).isEqualTo("anomaly");
            JsonNode data = AnomalyTopic.JSON.readTree(received.data);
            assertThat(data.get("id").asText()).isEqualTo(first.id().toString());
            assertThat(data.get("company_id").asText()).isEqualTo(company.toString());
            assertThat(data.get("qname").asText()).isEqualTo("live.example");
            assertThat(data.get("count").asLong()).isEqualTo(4);
            assertThat(data.get("last_seen").asText()).isEqualTo(first.lastSeen().toString());
            assertThat(received.id).isEqualTo(first.id().toString());
            assertThat(AnomalyTopic.JSON.readTree(next.data).get("id").asText()).isEqualTo(second.id().toString());
        }
    }

    @Test
    void aViewersStreamEndsOnceItsTokenIsRevokedOrItsMembershipRemovedAndGetsNoLaterDenial() throws Exception {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Stream revoked");
        AccessTableTest.Token token = run.newToken(company, "viewer");
        AccessTableTest.Member member = run.signedInMember(company, "viewer");
        URI streamUri = URI.create(base + "api/companies/" + company + "/egress/anomalies/stream");
        try (SseClient byToken = SseClient.open(streamUri, "Bearer " + token.value());
             SseClient bySession = SseClient.open(streamUri, "Bearer " + member.session());
             SseClient control = SseClient.open(streamUri, io.trimus.testing.TestOperator.HEADER);
             AnomalyTopic topic = new AnomalyTopic()) {
            for (SseClient stream : List.of(byToken, bySession, control)) {
                stream.awaitLine(": stream open", Duration.ofSeconds(10));
            }
            await().during(RECHECKS).atMost(RECHECKS.plusSeconds(5))
                    .until(() -> !byToken.ended() && !bySession.ended());

            run.revoke(company, token);
            run.removeMember(company, member);
            await().atMost(ENDS_WITHIN).untilAsserted(() -> {
                assertThat(byToken.ended()).as("the revoked token's stream ended").isTrue();
                assertThat(bySession.ended()).as("the removed member's stream ended").isTrue();
            });

            EgressAnomaly after = anomaly(UUID.fromString(company), "after-revocation.example");
            topic.publish(after);
            assertThat(AnomalyTopic.JSON.readTree(control.nextEvent(FIRST).data).get("id").asText())
                    .isEqualTo(after.id().toString());
            assertThat(byToken.all()).noneMatch(line -> line.contains(after.id().toString()));
            assertThat(bySession.all()).noneMatch(line -> line.contains(after.id().toString()));
            assertThat(control.ended()).isFalse();
        }
    }

    @Test
    void oneCredentialHoldsAtMostTenStreamsAndGetsAPlaceBackWhenOneEnds() throws Exception {
        AccessTableTest.RunService run = new AccessTableTest.RunService();
        String company = run.company("Stream cap");
        String viewer = "Bearer " + run.token(company, "viewer");
        URI streamUri = URI.create(base + "api/companies/" + company + "/egress/anomalies/stream");
        List<SseClient> open = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_PER_CALLER; i++) {
                SseClient stream = SseClient.open(streamUri, viewer);
                open.add(stream);
                stream.awaitLine(": stream open", Duration.ofSeconds(10));
            }
            Attempt refused = SseClient.attempt(streamUri, viewer);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.contentType()).isEqualTo("application/problem+json");
            assertThat(refused.body()).contains("TRIMUS_STREAMS_MAX_PER_CALLER");
            assertThat(SseClient.attempt(streamUri, "Bearer " + run.token(company, "viewer")).status())
                    .as("another credential of the same company").isEqualTo(200);

            open.remove(0).close();
            await().atMost(ENDS_WITHIN).until(() -> SseClient.attempt(streamUri, viewer).status() == 200);
        } finally {
            open.forEach(SseClient::close);
        }
    }

    @Test
    void aStreamForAMalformedCompanyIdIsAProblem() {
        assertInvalidField(given().accept("text/event-stream")
                .get("/api/companies/{c}/egress/anomalies/stream", "acme").then(), "company_id");
    }

    /** The answer to an open that was closed at once: status, content type, and the body unless 200. */
    record Attempt(int status, String contentType, String body) {
    }

    /** One server-sent event. */
    record SseEvent(String name, String id, String data) {
    }

    /** A plain HTTP client reading an event stream line by line, as a browser's EventSource would. */
    static final class SseClient implements AutoCloseable {
        private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .build();
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> all = new CopyOnWriteArrayList<>();
        private final AtomicBoolean ended = new AtomicBoolean();
        private final Stream<String> body;
        final String contentType;

        private SseClient(HttpResponse<Stream<String>> response) {
            this.body = response.body();
            this.contentType = response.headers().firstValue("content-type").orElse("");
            Thread reader = new Thread(() -> {
                try {
                    body.forEach(line -> {
                        all.add(line);
                        lines.add(line);
                    });
                } catch (RuntimeException closed) {
                    // the test closed the stream
                } finally {
                    ended.set(true);
                }
            }, "sse-reader");
            reader.setDaemon(true);
            reader.start();
        }

        static SseClient open(URI uri) throws IOException, InterruptedException {
            return open(uri, io.trimus.testing.TestOperator.HEADER);
        }

        static SseClient open(URI uri, String authorization) throws IOException, InterruptedException {
            HttpResponse<Stream<String>> response = CLIENT.send(request(uri, authorization),
                    HttpResponse.BodyHandlers.ofLines());
            assertThat(response.statusCode()).isEqualTo(200);
            return new SseClient(response);
        }

        /** Opens the stream and closes it at once: the answer's status and headers, and its body unless 200. */
        static Attempt attempt(URI uri, String authorization) throws IOException, InterruptedException {
            HttpResponse<java.io.InputStream> response = CLIENT.send(request(uri, authorization),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (java.io.InputStream body = response.body()) {
                return new Attempt(response.statusCode(), response.headers().firstValue("content-type").orElse(""),
                        response.statusCode() == 200 ? "" : new String(body.readAllBytes(),
                                java.nio.charset.StandardCharsets.UTF_8));
            }
        }

        private static HttpRequest request(URI uri, String authorization) {
            return HttpRequest.newBuilder(uri).header("Accept", "text/event-stream")
                    .header("Authorization", authorization).GET().build();
        }

        /** True once the server ended the stream (or the test closed it). */
        boolean ended() {
            return ended.get();
        }

        /** Every line read so far. */
        List<String> all() {
            return all;
        }

        void awaitLine(String expected, Duration atMost) throws InterruptedException {
            long deadline = System.nanoTime() + atMost.toNanos();
            List<String> seen = new ArrayList<>();
            while (System.nanoTime() < deadline) {
                String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (line != null && normal(line).equals(normal(expected))) {
                    return;
                }
                seen.add(line);
            }
            throw new AssertionError("no line '" + expected + "' within " + atMost + "; saw " + seen);
        }

        private static String normal(String line) {
            return line.replace(" ", "");
        }

        /** The next event (lines up to a blank line), skipping comment-only blocks. */
        SseEvent nextEvent(Duration atMost) throws InterruptedException {
            long deadline = System.nanoTime() + atMost.toNanos();
            String name = null;
            String id = null;
            StringBuilder data = new StringBuilder();
            while (System.nanoTime() < deadline) {
                String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (line == null) {
                    break;
                }
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        return new SseEvent(name, id, data.toString());
                    }
                    name = null;
                    id = null;
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("data:")) {
                    data.append(data.length() > 0 ? "\n" : "").append(line.substring(5).strip());
                }
            }
            throw new AssertionError("no event within " + atMost);
        }

        @Override
        public void close() {
            body.close();
        }
    }
}
