package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import io.trimus.events.EgressAnomaly;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Live feeds end when their credential does: the dashboard asks run-service again who the caller of an open stream
 * is (every second here, {@code %test.trimus.streams.recheck}), so a revoked session or a removed member stops
 * receiving events at the next check instead of at the stream's 10-minute end, and a company the caller lost stops
 * sending its runs. One credential holds at most 10 feeds (trimus.streams.max-per-caller's default) and gets its
 * place back when one ends. Each replica reads the feeds' topics in consumer groups of its own, so a second one misses
 * nothing.
 * <p>
 * The tests run side by side (each method {@link ExecutionMode#CONCURRENT}; the class is not, so no other class runs
 * meanwhile): each makes its own company, account and session and mostly waits on its feeds (a window of re-checks,
 * a run to finish, a consumer group to join), so together they take about as long as the longest one instead of the
 * sum. Nothing here changes state another test reads: the feeds' limit is per session, and every event carries a
 * company of the test's own.
 */
@ExtendWith(SystemStack.class)
class DashboardLiveFeedTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration RECHECKS = Duration.ofSeconds(3);
    private static final Duration ENDS_WITHIN = Duration.ofSeconds(10);
    private static final int MAX_PER_CALLER = 10;
    // one reader per open feed: the common pool has a thread per core, too few for ten feeds at once
    private static final java.util.concurrent.ExecutorService READERS =
            java.util.concurrent.Executors.newCachedThreadPool(runnable -> {
                Thread thread = new Thread(runnable, "feed-reader");
                thread.setDaemon(true);
                return thread;
            });

    URI dashboard = SystemStack.dashboard();

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void theRunFeedOfASessionRevokedMidStreamEndsWithinTheRecheckPeriod() {
        String company = Stack.createCompany(Stack.unique("LiveRevoked"));
        String session = new Http(dashboard).signIn(Accounts.withPassword(company, "viewer"), Accounts.PASSWORD);
        Feed feed = open("/live/runs", session);
        await().during(RECHECKS).atMost(RECHECKS.plusSeconds(2)).until(() -> !feed.ended().isDone());

        Stack.runService().header("Authorization", "Bearer " + session).delete("/api/sessions/current")
                .then().statusCode(204);
        await().atMost(ENDS_WITHIN).until(() -> feed.ended().isDone());
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aCompanysDenialFeedEndsWhenTheViewerIsRemovedFromTheCompany() {
        String company = Stack.createCompany(Stack.unique("LiveRemoved"));
        String email = Accounts.withPassword(company, "viewer");
        String session = new Http(dashboard).signIn(email, Accounts.PASSWORD);
        Feed feed = open("/companies/" + company + "/egress/live", session);
        await().during(RECHECKS).atMost(RECHECKS.plusSeconds(2)).until(() -> !feed.ended().isDone());

        Stack.runService().delete("/api/companies/{c}/members/{e}", company, email).then().statusCode(204);
        await().atMost(ENDS_WITHIN).until(() -> feed.ended().isDone());
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void theRunFeedOfAMemberRemovedFromOneCompanyKeepsTheOtherCompanysRunsOnly() {
        String kept = Stack.createCompany(Stack.unique("LiveKept"));
        String lost = Stack.createCompany(Stack.unique("LiveLost"));
        String email = Accounts.withPassword(kept, "viewer");
        Stack.runService().body(Map.of("role", "viewer")).put("/api/companies/{c}/members/{e}", lost, email)
                .then().statusCode(200);
        Feed feed = open("/live/runs", new Http(dashboard).signIn(email, Accounts.PASSWORD));

        Stack.runService().delete("/api/companies/{c}/members/{e}", lost, email).then().statusCode(204);
        // the re-checks that see the removal keep the stream open: the caller still has a company
        await().during(RECHECKS).atMost(RECHECKS.plusSeconds(2)).until(() -> !feed.ended().isDone());
        Map<String, Object> noImage = Map.of("image", "trimus-test/no-such-image:never");
        String lostRun = Stack.startRun(lost, Stack.createAgent(lost, "idle", "docker", noImage), Map.of());
        Stack.awaitFinished(lost, lostRun);
        String keptRun = Stack.startRun(kept, Stack.createAgent(kept, "idle", "docker", noImage), Map.of());
        String status = Stack.awaitFinished(kept, keptRun);
        await().atMost(Duration.ofSeconds(30)).until(() -> feed.lines().stream()
                .anyMatch(l -> l.startsWith("data:") && l.contains(keptRun + " " + status)));
        assertThat(feed.lines()).noneMatch(l -> l.contains(lostRun));
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void oneSessionHoldsAtMostTenFeedsAndGetsAPlaceBackWhenOneEnds() throws Exception {
        String company = Stack.createCompany(Stack.unique("LiveCap"));
        String email = Accounts.withPassword(company, "viewer");
        String session = new Http(dashboard).signIn(email, Accounts.PASSWORD);
        List<Feed> feeds = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_PER_CALLER; i++) {
                feeds.add(open(i % 2 == 0 ? "/live/runs" : "/companies/" + company + "/egress/live", session));
            }
            Attempt refused = attempt("/live/runs", session);
            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.contentType()).isEqualTo("application/problem+json");
            assertThat(refused.body()).contains("TRIMUS_STREAMS_MAX_PER_CALLER");
            Feed other = open("/live/runs", new Http(dashboard).signIn(email, Accounts.PASSWORD));
            other.close();

            feeds.remove(0).close();
            await().atMost(ENDS_WITHIN).until(() -> attempt("/live/runs", session).status() == 200);
        } finally {
            feeds.forEach(Feed::close);
        }
    }

    /** The answer to a feed opened and closed at once: its status, content type, and body unless 200. */
    private record Attempt(int status, String contentType, String body) {
    }

    private Attempt attempt(String path, String session) throws Exception {
        HttpResponse<java.io.InputStream> answer = CLIENT.send(HttpRequest.newBuilder(dashboard.resolve(path))
                .header("Accept", "text/event-stream").header("Cookie", "trimus_session=" + session).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.InputStream body = answer.body()) {
            return new Attempt(answer.statusCode(), answer.headers().firstValue("Content-Type").orElse(""),
                    answer.statusCode() == 200 ? "" : new String(body.readAllBytes(),
                            java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aSecondReplicaSeesEveryEventThisOneSeesFromWhenItJoins() {
        String company = Stack.createCompany(Stack.unique("LiveReplicas"));
        Feed feed = open("/companies/" + company + "/egress/live",
                new Http(dashboard).signIn(Accounts.withPassword(company, "viewer"), Accounts.PASSWORD));
        AnotherReplica other = new AnotherReplica();
        EgressAnomaly before = denial(company, "before");
        EgressRecords.publish(before);
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = other.consumer("anomalies-live")) {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.value()));
                return !consumer.assignment().isEmpty();
            });
            // the group's starting offsets are looked up after the assignment, on a later poll: fix them now, or a
            // burst published meanwhile counts as before the join (seen under load: only its last few arrived)
            consumer.assignment().forEach(consumer::position);
            List<EgressAnomaly> burst = IntStream.range(0, 20).mapToObj(i -> denial(company, "burst" + i)).toList();
            EgressRecords.publish(burst.toArray(EgressAnomaly[]::new));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.value()));
                assertThat(burst).allSatisfy(a -> assertThat(seen).as("the other replica")
                        .anyMatch(v -> v.contains(a.id().toString())));
                assertThat(burst).allSatisfy(a -> assertThat(feed.lines()).as("this replica's page")
                        .anyMatch(l -> l.contains("data-id=\"" + a.id() + "\"")));
            });
        }
        assertThat(seen).as("a new group starts at the latest offset").noneMatch(v -> v.contains(before.id().toString()));
    }

    private static EgressAnomaly denial(String company, String label) {
        return EgressRecords.anomaly(company, null, label + "-" + UUID.randomUUID() + ".example", "A", "not_allowlisted",
                1, Instant.now(), true);
    }

    /** An open SSE stream: the lines read so far, a future that completes when the server ends it, and its body. */
    private record Feed(List<String> lines, CompletableFuture<Void> ended, Stream<String> body) {
        /** Closes the stream from this side, as a browser leaving the page. */
        void close() {
            body.close();
        }
    }

    private Feed open(String path, String session) {
        HttpResponse<Stream<String>> answer;
        try {
            answer = CLIENT.send(HttpRequest.newBuilder(dashboard.resolve(path))
                    .header("Accept", "text/event-stream").header("Cookie", "trimus_session=" + session)
                    .GET().build(), HttpResponse.BodyHandlers.ofLines());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(answer.statusCode()).isEqualTo(200);
        List<String> lines = new CopyOnWriteArrayList<>();
        Stream<String> body = answer.body();
        CompletableFuture<Void> ended = CompletableFuture.runAsync(() -> {
            try (body) {
                body.forEach(lines::add);
            } catch (RuntimeException closed) {
                // the test closed the stream
            }
        }, READERS);
        await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream().anyMatch(l -> l.contains("stream open")));
        return new Feed(lines, ended, body);
    }
}
