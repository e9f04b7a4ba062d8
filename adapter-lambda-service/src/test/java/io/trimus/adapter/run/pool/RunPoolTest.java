package io.trimus.adapter.run.pool;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class RunPoolTest {

    @Test
    void aRunIsHeldUntilItsWorkReturnsAndASecondRequestForItIsIgnored() throws Exception {
        RunPool<String> pool = new RunPool<>("TRIMUS_TEST_MAX", "test-run", 1);
        UUID run = UUID.randomUUID();
        CountDownLatch release = new CountDownLatch(1);
        List<String> done = new CopyOnWriteArrayList<>();

        pool.submit(run, "first", () -> {
            block(release);
            done.add("first");
        }, () -> done.add("rejected"));
        pool.submit(run, "second", () -> done.add("second"), () -> done.add("rejected"));

        assertThat(pool.holds(run)).isTrue();
        assertThat(pool.held(run)).isEqualTo("first");
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> !pool.holds(run));
        assertThat(done).containsExactly("first");
        pool.shutdown(handle -> { }, Duration.ofSeconds(5));
    }

    @Test
    void atShutdownEveryHeldRunIsHandedBackAndNewWorkIsRefused() {
        RunPool<String> pool = new RunPool<>("TRIMUS_TEST_MAX", "test-run", 1);
        CountDownLatch stopCalled = new CountDownLatch(1);
        pool.submit(UUID.randomUUID(), "running", () -> blockUntilStopped(stopCalled), () -> { });
        pool.submit(UUID.randomUUID(), "queued", () -> { }, () -> { });
        List<String> stopped = new CopyOnWriteArrayList<>();

        boolean ended = pool.shutdown(handle -> {
            stopped.add(handle);
            if (handle.equals("running")) {
                stopCalled.countDown();
            }
        }, Duration.ofSeconds(5));

        assertThat(ended).isTrue();
        assertThat(stopped).containsExactlyInAnyOrder("running", "queued");
        List<String> refused = new CopyOnWriteArrayList<>();
        UUID late = UUID.randomUUID();
        pool.submit(late, "late", () -> refused.add("ran"), () -> refused.add("refused"));
        assertThat(refused).containsExactly("refused");
        assertThat(pool.holds(late)).isFalse();
    }

    @Test
    void aKeyOverItsShareWaitsInOrderWhileAnotherKeysRunStarts() {
        RunPool<String> pool = new RunPool<>("TRIMUS_TEST_MAX", "test-run", 4, "TRIMUS_TEST_SHARE", 2);
        List<String> started = new CopyOnWriteArrayList<>();
        Map<String, CountDownLatch> ends = new ConcurrentHashMap<>();
        Map<String, UUID> runs = new ConcurrentHashMap<>();
        for (String name : List.of("a1", "a2", "a3", "a4", "b1")) {
            ends.put(name, new CountDownLatch(1));
            runs.put(name, UUID.randomUUID());
            pool.submit(runs.get(name), name.substring(0, 1), name, () -> {
                started.add(name);
                block(ends.get(name));
            }, () -> { });
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 3);
        assertThat(started).containsExactlyInAnyOrder("a1", "a2", "b1");
        assertThat(pool.holds(runs.get("a3"))).isTrue();
        assertThat(pool.holds(runs.get("a4"))).isTrue();

        ends.get("b1").countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> !pool.holds(runs.get("b1")));
        assertThat(started).containsExactlyInAnyOrder("a1", "a2", "b1");

        ends.get("a2").countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 4);
        assertThat(started).containsExactlyInAnyOrder("a1", "a2", "b1", "a3");

        ends.get("a1").countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> started.contains("a4"));
        ends.values().forEach(CountDownLatch::countDown);
        pool.shutdown(handle -> { }, Duration.ofSeconds(5));
    }

    @Test
    void aRunWaitingForItsShareThatIsReleasedNeverStartsAndTakesNoPlace() {
        RunPool<String> pool = new RunPool<>("TRIMUS_TEST_MAX", "test-run", 2, "TRIMUS_TEST_SHARE", 1);
        CountDownLatch end = new CountDownLatch(1);
        List<String> started = new CopyOnWriteArrayList<>();
        UUID waiting = UUID.randomUUID();
        pool.submit(UUID.randomUUID(), "a", "first", () -> {
            started.add("first");
            block(end);
        }, () -> { });
        pool.submit(waiting, "a", "cancelled", () -> started.add("cancelled"), () -> { });
        UUID last = UUID.randomUUID();
        pool.submit(last, "a", "last", () -> started.add("last"), () -> { });

        pool.release(waiting, "cancelled");
        assertThat(pool.holds(waiting)).isFalse();
        end.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> !pool.holds(last));
        assertThat(started).containsExactly("first", "last");
        pool.shutdown(handle -> { }, Duration.ofSeconds(5));
    }

    @Test
    void atShutdownRunsWaitingForTheirShareAreHandedBackAndNeverStart() {
        RunPool<String> pool = new RunPool<>("TRIMUS_TEST_MAX", "test-run", 2, "TRIMUS_TEST_SHARE", 1);
        CountDownLatch stopCalled = new CountDownLatch(1);
        List<String> started = new CopyOnWriteArrayList<>();
        pool.submit(UUID.randomUUID(), "a", "running", () -> blockUntilStopped(stopCalled), () -> { });
        pool.submit(UUID.randomUUID(), "a", "waiting", () -> started.add("waiting"), () -> started.add("refused"));
        List<String> stopped = new CopyOnWriteArrayList<>();

        assertThat(pool.shutdown(handle -> {
            stopped.add(handle);
            if (handle.equals("running")) {
                stopCalled.countDown();
            }
        }, Duration.ofSeconds(5))).isTrue();

        assertThat(stopped).containsExactlyInAnyOrder("running", "waiting");
        assertThat(started).isEmpty();
    }

    @Test
    void aShareBelowOneStopsTheServiceNamingTheKnob() {
        assertThatThrownBy(() -> new RunPool<String>("TRIMUS_DOCKER_MAX_CONCURRENT_RUNS", "x", 4,
                "TRIMUS_COMPANY_MAX_CONCURRENT_RUNS", 0))
                .hasMessage("TRIMUS_COMPANY_MAX_CONCURRENT_RUNS must be at least 1, got 0");
    }

    @Test
    void aPoolOfNoThreadsStopsTheServiceNamingTheKnob() {
        assertThatThrownBy(() -> new RunPool<String>("TRIMUS_DOCKER_MAX_CONCURRENT_RUNS", "x", 0))
                .hasMessage("TRIMUS_DOCKER_MAX_CONCURRENT_RUNS must be at least 1, got 0");
    }

    /**
     * Like a run's worker that has to clean up after the interrupt: it stays held until the pool has handed it back
     * (otherwise the interrupt can release it before shutdown gets to it, and the test would race).
     */
    private static void blockUntilStopped(CountDownLatch stopCalled) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (stopCalled.getCount() > 0 && System.nanoTime() < deadline) {
            try {
                stopCalled.await(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void block(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
