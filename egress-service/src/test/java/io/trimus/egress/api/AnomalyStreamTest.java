package io.trimus.egress.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.EgressAnomaly;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.trimus.egress.api.AnomalyTopic.anomaly;
import static io.trimus.testing.Problems.assertInvalidField;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AnomalyStreamTest {
    private static final Duration FIRST = Duration.ofSeconds(30);

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
    void aStreamForAMalformedCompanyIdIsAProblem() {
        assertInvalidField(given().accept("text/event-stream")
                .get("/api/companies/{c}/egress/anomalies/stream", "acme").then(), "company_id");
    }

    /** One server-sent event. */
    record SseEvent(String name, String id, String data) {
    }

    /** A plain HTTP client reading an event stream line by line, as a browser's EventSource would. */
    static final class SseClient implements AutoCloseable {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Stream<String> body;
        final String contentType;

        private SseClient(HttpResponse<Stream<String>> response) {
            this.body = response.body();
            this.contentType = response.headers().firstValue("content-type").orElse("");
            Thread reader = new Thread(() -> {
                try {
                    body.forEach(lines::add);
                } catch (RuntimeException closed) {
                    // the test closed the stream
                }
            }, "sse-reader");
            reader.setDaemon(true);
            reader.start();
        }

        static SseClient open(URI uri) throws IOException, InterruptedException {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpRequest request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream")
                    .header("Authorization", io.trimus.testing.TestOperator.HEADER).GET().build();
            HttpResponse<Stream<String>> response = client.send(request, HttpResponse.BodyHandlers.ofLines());
            assertThat(response.statusCode()).isEqualTo(200);
            return new SseClient(response);
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
