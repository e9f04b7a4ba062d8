package io.trimus.adapter.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
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
        CountDownLatch never = new CountDownLatch(1);
        pool.submit(UUID.randomUUID(), "running", () -> block(never), () -> { });
        pool.submit(UUID.randomUUID(), "queued", () -> { }, () -> { });
        List<String> stopped = new CopyOnWriteArrayList<>();

        boolean ended = pool.shutdown(stopped::add, Duration.ofSeconds(5));

        assertThat(ended).isTrue();
        assertThat(stopped).containsExactlyInAnyOrder("running", "queued");
        List<String> refused = new CopyOnWriteArrayList<>();
        UUID late = UUID.randomUUID();
        pool.submit(late, "late", () -> refused.add("ran"), () -> refused.add("refused"));
        assertThat(refused).containsExactly("refused");
        assertThat(pool.holds(late)).isFalse();
    }

    @Test
    void aPoolOfNoThreadsStopsTheServiceNamingTheKnob() {
        assertThatThrownBy(() -> new RunPool<String>("TRIMUS_DOCKER_MAX_CONCURRENT_RUNS", "x", 0))
                .hasMessage("TRIMUS_DOCKER_MAX_CONCURRENT_RUNS must be at least 1, got 0");
    }

    private static void block(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
