package io.trimus.egress.anomaly;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.events.EgressAnomaly;
import io.trimus.testing.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

class RateLimitedAnomalyRecorderTest {
    private static final int NAMES = RateLimitedAnomalyRecorder.DEFAULT_MAX_NAMES_PER_SANDBOX;
    private static final Duration WINDOW = Duration.ofSeconds(10);
    private static final Sandbox SANDBOX = new Sandbox("172.30.0.5", UUID.randomUUID(), UUID.randomUUID(),
            UUID.randomUUID(), "c0ffee");

    private final List<EgressAnomaly> published = new CopyOnWriteArrayList<>();
    private final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
    private RateLimitedAnomalyRecorder recorder = new RateLimitedAnomalyRecorder(published::add, WINDOW, 1000, NAMES,
            clock, new SimpleMeterRegistry());

    private ScheduledExecutorService closer;

    @AfterEach
    void stop() {
        if (closer != null) {
            closer.shutdownNow();
        }
        recorder.stop();
    }

    /** What the service's scheduler job does, a few times per window: close the windows that have ended. */
    private void closeWindowsInBackground() {
        long tick = recorder.tick().toMillis();
        closer = Executors.newSingleThreadScheduledExecutor();
        closer.scheduleWithFixedDelay(recorder::flushDue, tick, tick, TimeUnit.MILLISECONDS);
    }

    @Test
    void aCanaryProbesDenialsAreItsChecksAndNoAnomaly() throws Exception {
        Sandbox probe = new Sandbox("172.30.0.6", SANDBOX.companyId(), io.trimus.events.CanaryRequested.PROBE_AGENT_ID,
                UUID.randomUUID(), "ca7a");
        recorder.record(probe, probe.ip(), "c1.canary.trimus.invalid", "A", EgressAnomaly.NOT_ALLOWLISTED);
        recorder.record(probe, java.net.InetAddress.getByName(probe.ip()), "c2.canary.trimus.invalid", "A",
                EgressAnomaly.NOT_ALLOWLISTED, true);
        recorder.recordRequest(probe, probe.ip(), "api.github.com", "TLS", "POST", "/", true);
        recorder.flushAll();

        assertThat(published).isEmpty();
        recorder.record(SANDBOX, SANDBOX.ip(), "c1.canary.trimus.invalid", "A", EgressAnomaly.NOT_ALLOWLISTED);
        assertThat(published).singleElement().extracting(EgressAnomaly::agentId).isEqualTo(SANDBOX.agentId());
    }

    @Test
    void firstDenialIsPublishedAtOnceWithTheSandboxAndCountOne() {
        recorder.record(SANDBOX, SANDBOX.ip(), "exfil.attacker.example", "A", EgressAnomaly.NOT_ALLOWLISTED);

        assertThat(published).singleElement().satisfies(event -> {
            assertThat(event.id()).isNotNull();
            assertThat(event.companyId()).isEqualTo(SANDBOX.companyId());
            assertThat(event.agentId()).isEqualTo(SANDBOX.agentId());
            assertThat(event.runId()).isEqualTo(SANDBOX.runId());
            assertThat(event.containerId()).isEqualTo("c0ffee");
            assertThat(event.sourceIp()).isEqualTo("172.30.0.5");
            assertThat(event.qname()).isEqualTo("exfil.attacker.example");
            assertThat(event.qtype()).isEqualTo("A");
            assertThat(event.reason()).isEqualTo("not_allowlisted");
            assertThat(event.count()).isEqualTo(1);
            assertThat(event.firstSeen()).isEqualTo(event.lastSeen()).isEqualTo(clock.instant());
        });
    }

    @Test
    void floodOfDenialsBecomesFewEventsWhoseCountsSumToExactlyN() {
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            deny("exfil.attacker.example");
            clock.advance(Duration.ofMillis(4)); // 40 s of flood: four windows
            if (i % 25 == 0) {
                recorder.flushDue();
            }
        }
        clock.advance(WINDOW);
        recorder.flushDue(); // the last window's repeats
        clock.advance(WINDOW);
        recorder.flushDue(); // a quiet window: the key is forgotten

        assertThat(published).hasSizeBetween(2, 6);
        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo(n);
        assertThat(published.get(0).count()).isEqualTo(1);
        assertThat(published).allSatisfy(e -> assertThat(e.firstSeen()).isBeforeOrEqualTo(e.lastSeen()));
        assertThat(recorder.trackedKeys()).isZero();
    }

    @Test
    void aRefusedRequestCarriesMethodAndPathAndRepeatsFoldPerRequest() {
        recorder.recordRequest(SANDBOX, SANDBOX.ip(), "api.github.com", "TLS", "DELETE", "/repos/acme/app", true);
        recorder.recordRequest(SANDBOX, SANDBOX.ip(), "api.github.com", "TLS", "DELETE", "/repos/acme/app", true);
        recorder.recordRequest(SANDBOX, SANDBOX.ip(), "api.github.com", "TLS", "GET", "/repos/evil/app", true);
        recorder.recordRequest(SANDBOX, SANDBOX.ip(), "api.github.com", "TLS", "GET", "/repos/evil/app", false);
        recorder.record(SANDBOX, SANDBOX.ip(), "api.github.com", "TLS", EgressAnomaly.PROXY_REQUEST_DENIED, true);

        assertThat(published).extracting(EgressAnomaly::reason, EgressAnomaly::method, EgressAnomaly::path,
                        EgressAnomaly::enforced)
                .containsExactly(tuple("proxy_request_denied", "DELETE", "/repos/acme/app", true),
                        tuple("proxy_request_denied", "GET", "/repos/evil/app", true),
                        tuple("proxy_request_denied", "GET", "/repos/evil/app", false),
                        tuple("proxy_request_denied", null, null, true));

        clock.advance(WINDOW);
        recorder.flushDue();

        assertThat(published).hasSize(5);
        assertThat(published.get(4)).satisfies(folded -> {
            assertThat(folded.method()).isEqualTo("DELETE");
            assertThat(folded.path()).isEqualTo("/repos/acme/app");
            assertThat(folded.count()).isEqualTo(1);
        });
    }

    @Test
    void repeatsWithinOneWindowAreOneEventWithTheirFirstAndLastTime() {
        Instant start = clock.instant();
        deny("a.example");
        clock.advance(Duration.ofSeconds(1));
        deny("a.example");
        clock.advance(Duration.ofSeconds(3));
        deny("a.example");
        assertThat(published).hasSize(1);

        clock.advance(Duration.ofSeconds(6));
        recorder.flushDue();

        assertThat(published).hasSize(2);
        EgressAnomaly folded = published.get(1);
        assertThat(folded.count()).isEqualTo(2);
        assertThat(folded.firstSeen()).isEqualTo(start.plusSeconds(1));
        assertThat(folded.lastSeen()).isEqualTo(start.plusSeconds(4));
        assertThat(folded.id()).isNotEqualTo(published.get(0).id());
    }

    @Test
    void nothingMoreIsPublishedForAWindowWithoutRepeatsAndTheKeyIsForgotten() {
        deny("a.example");
        clock.advance(WINDOW);
        recorder.flushDue();

        assertThat(published).hasSize(1);
        assertThat(recorder.trackedKeys()).isZero();

        deny("a.example");
        assertThat(published).hasSize(2);
        assertThat(published.get(1).count()).isEqualTo(1);
    }

    @Test
    void eachSourceNameTypeAndReasonIsCountedApart() {
        deny("a.example");
        deny("b.example");
        recorder.record(SANDBOX, SANDBOX.ip(), "a.example", "TXT", EgressAnomaly.QTYPE_DENIED);
        recorder.record(null, "172.30.0.99", "a.example", "A", EgressAnomaly.UNATTRIBUTED_SOURCE);

        assertThat(published).hasSize(4);
        assertThat(published.get(3).companyId()).isNull();
        assertThat(published.get(3).sourceIp()).isEqualTo("172.30.0.99");
    }

    @Test
    void reachingTheKeyBoundFlushesEarlyAndLosesNothing() {
        recorder = new RateLimitedAnomalyRecorder(published::add, WINDOW, 10, NAMES, clock, new SimpleMeterRegistry());
        int denials = 0;
        for (int name = 0; name < 25; name++) {
            for (int repeat = 0; repeat < 3; repeat++) {
                deny("n" + name + ".example");
                denials++;
                assertThat(recorder.trackedKeys()).isLessThanOrEqualTo(10);
            }
        }
        recorder.flushAll();

        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo(denials);
        assertThat(published).hasSize(50);
    }

    @Test
    void concurrentFloodWithWindowsClosingMeanwhileStillAddsUpExactly() throws Exception {
        recorder = new RateLimitedAnomalyRecorder(published::add, Duration.ofMillis(20), 1000, NAMES,
                Clock.systemUTC(), new SimpleMeterRegistry());
        closeWindowsInBackground();
        int threads = 4;
        int perThread = 50_000;
        together(threads, thread -> {
            String name = "n" + (thread % 2) + ".example";
            for (int i = 0; i < perThread; i++) {
                recorder.record(SANDBOX, SANDBOX.ip(), name, "A", EgressAnomaly.NOT_ALLOWLISTED);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.trackedKeys() == 0);
        recorder.stop();

        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo((long) threads * perThread);
        assertThat(published.size()).isLessThan(threads * perThread / 100);
    }

    @Test
    void theResolversInPlaceRecordsFoldWithTheOthersAndStillAddUpExactlyUnderConcurrency() throws Exception {
        recorder = new RateLimitedAnomalyRecorder(published::add, Duration.ofMillis(20), 1000, NAMES,
                Clock.systemUTC(), new SimpleMeterRegistry());
        closeWindowsInBackground();
        java.net.InetAddress source = java.net.InetAddress.getByName(SANDBOX.ip());
        int threads = 4;
        int perThread = 50_000;
        together(threads, thread -> {
            String name = "n" + (thread % 2) + ".example";
            // the in-place path hands a reused, changing buffer: the recorder must not keep it
            StringBuilder reused = new StringBuilder();
            for (int i = 0; i < perThread; i++) {
                if (thread < 2) {
                    reused.setLength(0);
                    reused.append(name);
                    recorder.record(SANDBOX, source, reused, "A", EgressAnomaly.NOT_ALLOWLISTED, true);
                    reused.setLength(0);
                    reused.append("overwritten.example");
                } else {
                    recorder.record(SANDBOX, SANDBOX.ip(), name, "A", EgressAnomaly.NOT_ALLOWLISTED);
                }
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.trackedKeys() == 0);
        recorder.stop();

        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo((long) threads * perThread);
        assertThat(published).extracting(EgressAnomaly::qname).containsOnly("n0.example", "n1.example");
        assertThat(published).extracting(EgressAnomaly::sourceIp).containsOnly(SANDBOX.ip());
        assertThat(published.size()).isLessThan(threads * perThread / 100);
    }

    @Test
    void theResolversFloodOfFreshNamesFoldsWithoutLocksAndStillAddsUpExactly() throws Exception {
        recorder = new RateLimitedAnomalyRecorder(published::add, Duration.ofMillis(20), 100_000, 100,
                Clock.systemUTC(), new SimpleMeterRegistry());
        closeWindowsInBackground();
        java.net.InetAddress source = java.net.InetAddress.getByName(SANDBOX.ip());
        int threads = 4;
        int perThread = 100_000;
        together(threads, thread -> {
            StringBuilder reused = new StringBuilder();
            for (int i = 0; i < perThread; i++) {
                reused.setLength(0);
                reused.append('x').append(thread).append('-').append(i).append(".flood.example");
                recorder.record(SANDBOX, source, reused, "A", EgressAnomaly.NOT_ALLOWLISTED, true);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.trackedKeys() == 0);
        recorder.stop();

        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo((long) threads * perThread);
        assertThat(published).filteredOn(e -> e.count() > 1)
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.qname()).isEqualTo("*.flood.example"));
        assertThat(published).allSatisfy(e -> assertThat(e.firstSeen()).isBeforeOrEqualTo(e.lastSeen()));
    }

    @Test
    void publisherFailureNeverReachesTheResolver() {
        recorder = new RateLimitedAnomalyRecorder(event -> {
            throw new IllegalStateException("broker away");
        }, WINDOW, 1000, NAMES, clock, new SimpleMeterRegistry());

        assertThatCode(() -> {
            deny("a.example");
            deny("a.example");
            clock.advance(WINDOW);
            recorder.flushDue();
        }).doesNotThrowAnyException();
    }

    @Test
    void stopPublishesWhatIsStillFolded() {
        deny("a.example");
        deny("a.example");
        deny("a.example");

        recorder.stop();

        assertThat(published).extracting(EgressAnomaly::count).containsExactly(1L, 2L);
    }

    @Test
    void beyondItsBudgetASandboxsFreshNamesFoldIntoOneOverflowEventPerWindowWithTheExactCount() {
        recorder = budgeted(3);
        Instant start = clock.instant();
        for (int i = 0; i < 1000; i++) {
            deny("x" + i + ".t.attacker.example");
            clock.advance(Duration.ofMillis(5)); // 5 s: one window
        }
        assertThat(published).extracting(EgressAnomaly::qname)
                .containsExactly("x0.t.attacker.example", "x1.t.attacker.example", "x2.t.attacker.example");

        clock.advance(WINDOW);
        recorder.flushDue();

        assertThat(published).hasSize(4);
        EgressAnomaly overflow = published.get(3);
        assertThat(overflow.qname()).isEqualTo("*.t.attacker.example");
        assertThat(overflow.count()).isEqualTo(997);
        assertThat(overflow.qtype()).isEqualTo("A");
        assertThat(overflow.reason()).isEqualTo(EgressAnomaly.NOT_ALLOWLISTED);
        assertThat(overflow.companyId()).isEqualTo(SANDBOX.companyId());
        assertThat(overflow.runId()).isEqualTo(SANDBOX.runId());
        assertThat(overflow.firstSeen()).isEqualTo(start.plusMillis(15));
        assertThat(overflow.lastSeen()).isEqualTo(start.plusMillis(5 * 999));
        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo(1000);

        clock.advance(WINDOW);
        recorder.flushDue();
        assertThat(recorder.trackedKeys()).isZero();
    }

    @Test
    void namesTrackedBeforeTheBudgetWasSpentKeepTheirOwnEvent() {
        recorder = budgeted(2);
        deny("a.example");
        deny("b.example");
        deny("c.example"); // over budget
        deny("a.example"); // a repeat of a tracked name: still its own key
        deny("a.example");
        clock.advance(WINDOW);
        recorder.flushDue();

        assertThat(published).extracting(EgressAnomaly::qname, EgressAnomaly::count).containsExactlyInAnyOrder(
                tuple("a.example", 1L),
                tuple("b.example", 1L),
                tuple("c.example", 1L), // one name folded: the name itself
                tuple("a.example", 2L));
    }

    @Test
    void overflowOfNamesWithNoCommonParentReadsStar() {
        recorder = budgeted(0);
        deny("a.one.example");
        deny("b.one.example");
        deny("c.other.test");
        deny("d.com");
        recorder.flushAll();

        assertThat(published).singleElement().satisfies(event -> {
            assertThat(event.qname()).isEqualTo(RateLimitedAnomalyRecorder.ANY_NAME);
            assertThat(event.count()).isEqualTo(4);
        });
    }

    @Test
    void commonSuffixIsTheLongestSharedRunOfWholeLabelsOfAtLeastTwo() {
        assertThat(FoldingWindow.commonSuffix("a.b.example.com", "c.b.example.com"))
                .isEqualTo("b.example.com");
        assertThat(FoldingWindow.commonSuffix("b.example.com", "x.yb.example.com"))
                .isEqualTo("example.com");
        assertThat(FoldingWindow.commonSuffix("example.com", "example.com")).isEqualTo("example.com");
        assertThat(FoldingWindow.commonSuffix("example.com", "a.example.com")).isEqualTo("example.com");
        assertThat(FoldingWindow.commonSuffix("a.example.com", "b.other.com")).isNull();
        assertThat(FoldingWindow.commonSuffix("a.example.com", "")).isNull();
    }

    @Test
    void theBudgetIsPerSandboxAndRenewsEveryWindow() {
        recorder = budgeted(2);
        Sandbox other = new Sandbox("172.30.0.6", UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "beef");
        for (int i = 0; i < 5; i++) {
            deny("n" + i + ".example");
            recorder.record(other, other.ip(), "n" + i + ".example", "A", EgressAnomaly.NOT_ALLOWLISTED);
        }
        assertThat(published).hasSize(4); // two own events per sandbox

        clock.advance(WINDOW);
        recorder.flushDue(); // one overflow event per sandbox (3 names each)
        assertThat(published).hasSize(6);
        assertThat(published.subList(4, 6)).allSatisfy(e -> {
            assertThat(e.qname()).isEqualTo(RateLimitedAnomalyRecorder.ANY_NAME);
            assertThat(e.count()).isEqualTo(3);
        });
        assertThat(published.subList(4, 6)).extracting(EgressAnomaly::sourceIp)
                .containsExactlyInAnyOrder(SANDBOX.ip(), other.ip());

        deny("fresh.example"); // a new window: a new budget
        assertThat(published).hasSize(7);
        assertThat(published.get(6).qname()).isEqualTo("fresh.example");
        assertThat(published.get(6).count()).isEqualTo(1);
    }

    @Test
    void overflowIsFoldedPerTypeAndReason() {
        recorder = budgeted(0);
        deny("a.x.example");
        deny("b.x.example");
        recorder.record(SANDBOX, SANDBOX.ip(), "c.x.example", "AAAA", EgressAnomaly.NOT_ALLOWLISTED);
        recorder.record(SANDBOX, SANDBOX.ip(), "d.x.example", "TXT", EgressAnomaly.QTYPE_DENIED);
        recorder.record(SANDBOX, SANDBOX.ip(), "e.x.example", "TXT", EgressAnomaly.QTYPE_DENIED);
        recorder.flushAll();

        assertThat(published).extracting(EgressAnomaly::qname, EgressAnomaly::qtype, EgressAnomaly::reason,
                EgressAnomaly::count).containsExactlyInAnyOrder(
                tuple("*.x.example", "A", EgressAnomaly.NOT_ALLOWLISTED, 2L),
                tuple("c.x.example", "AAAA", EgressAnomaly.NOT_ALLOWLISTED, 1L),
                tuple("*.x.example", "TXT", EgressAnomaly.QTYPE_DENIED, 2L));
    }

    @Test
    void concurrentFloodOfFreshNamesIsAFewEventsThatStillAddUpExactly() throws Exception {
        recorder = new RateLimitedAnomalyRecorder(published::add, Duration.ofMillis(50), 100_000, 100,
                Clock.systemUTC(), new SimpleMeterRegistry());
        closeWindowsInBackground();
        int threads = 4;
        int perThread = 100_000;
        long started = System.nanoTime();
        together(threads, thread -> {
            for (int i = 0; i < perThread; i++) {
                recorder.record(SANDBOX, SANDBOX.ip(), "x" + thread + "-" + i + ".denied.test", "A",
                        EgressAnomaly.NOT_ALLOWLISTED);
            }
        });
        long windows = 2 + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / 50;
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.trackedKeys() == 0);
        recorder.stop();

        assertThat(published.stream().mapToLong(EgressAnomaly::count).sum()).isEqualTo((long) threads * perThread);
        // per window at most the budget's own events and one overflow event
        assertThat((long) published.size()).isLessThanOrEqualTo(windows * 101);
        assertThat(published).filteredOn(e -> e.count() > 1)
                .allSatisfy(e -> assertThat(e.qname()).isEqualTo("*.denied.test"));
    }

    /** What one thread of {@link #together} does; {@code thread} is its number. */
    private interface ThreadWork {
        void run(int thread) throws Exception;
    }

    /** Runs {@code work} on {@code threads} threads started at once, and waits for all of them. */
    private static void together(int threads, ThreadWork work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Void>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                go.await();
                work.run(thread);
                return null;
            }));
        }
        go.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        for (Future<Void> each : done) {
            each.get(); // a thread's failure fails the test
        }
    }

    private void deny(String qname) {
        recorder.record(SANDBOX, SANDBOX.ip(), qname, "A", EgressAnomaly.NOT_ALLOWLISTED);
    }

    private RateLimitedAnomalyRecorder budgeted(int maxNamesPerSandbox) {
        return new RateLimitedAnomalyRecorder(published::add, WINDOW, 1000, maxNamesPerSandbox, clock,
                new SimpleMeterRegistry());
    }
}
