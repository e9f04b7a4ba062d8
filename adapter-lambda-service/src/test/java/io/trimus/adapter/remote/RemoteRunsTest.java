package io.trimus.adapter.remote;

import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.TestConfig;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.WorkerHeartbeat;
import io.trimus.testing.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's watch over its remote runs, on a clock the test moves: no run is ever left without an end. */
class RemoteRunsTest {
    private static final Instant T0 = Instant.parse("2026-01-15T09:30:00Z");
    private final TestClock clock = new TestClock(T0);
    private final List<RunStatusChanged> reported = new ArrayList<>();
    private static final TrimusConfig SIXTY_SECONDS_TO_CLAIM = TestConfig.of("trimus.remote.claim-timeout", "PT60S");
    private final RemoteRuns runs = new RemoteRuns(reported::add, SIXTY_SECONDS_TO_CLAIM, () -> true, clock);

    @Test
    void aRunNoWorkerClaimsFailsAtItsClaimDeadlineWithTheTag() {
        RunRequested run = watched("gpu");

        clock.at(T0.plusSeconds(59));
        runs.check();
        assertThat(reported).isEmpty();

        clock.at(T0.plusSeconds(60));
        runs.check();
        assertThat(reported).singleElement().satisfies(e -> {
            assertThat(e.runId()).isEqualTo(run.runId());
            assertThat(e.status()).isEqualTo(RunState.FAILED);
            assertThat(e.error()).isEqualTo("no worker with tag gpu claimed the run within 60 s");
        });
        runs.check();
        assertThat(reported).hasSize(1);
    }

    @Test
    void aClaimedRunOutlivesTheClaimDeadlineWhileItsWorkerBeats() {
        RunRequested run = watched("gpu");
        for (int s = 1; s <= 120; s++) {
            clock.at(T0.plusSeconds(s));
            runs.onHeartbeat(beat("w1", 5, run.runId()));
            runs.check();
        }
        assertThat(reported).isEmpty();
    }

    @Test
    void aRunWhoseWorkerMissesThreeBeatsFailsAsWorkerLost() {
        RunRequested run = watched("gpu");
        clock.at(T0.plusSeconds(1));
        runs.onHeartbeat(beat("w1", 5, run.runId()));

        clock.at(T0.plusSeconds(15));
        runs.check();
        assertThat(reported).isEmpty();

        clock.at(T0.plusSeconds(16));
        runs.check();
        assertThat(reported).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo(RunState.FAILED);
            assertThat(e.error()).isEqualTo("worker lost: worker w1 (tag gpu) stopped sending heartbeats while the"
                    + " run was in progress");
        });
    }

    @Test
    void aBeatOfTheClaimingWorkerWithoutTheRunEndsTheWatchItReportedTheOutcomeItself() {
        RunRequested run = watched("gpu");
        clock.at(T0.plusSeconds(1));
        runs.onHeartbeat(beat("w1", 5, run.runId()));
        runs.onHeartbeat(beat("w2", 5));     // another worker's beat says nothing about this run
        clock.at(T0.plusSeconds(2));
        runs.onHeartbeat(beat("w1", 5));

        clock.at(T0.plusSeconds(600));
        runs.check();
        assertThat(reported).isEmpty();
    }

    @Test
    void anUnclaimedRunIsCancelledHereAndAClaimedOneIsLeftToItsWorker() {
        RunRequested unclaimed = watched("gpu");
        RunRequested claimed = watched("gpu");
        runs.onHeartbeat(beat("w1", 5, claimed.runId()));

        assertThat(runs.cancel(unclaimed.runId())).isTrue();
        assertThat(runs.cancel(claimed.runId())).isTrue();
        assertThat(runs.cancel(UUID.randomUUID())).isFalse();

        assertThat(reported).singleElement().satisfies(e -> {
            assertThat(e.runId()).isEqualTo(unclaimed.runId());
            assertThat(e.status()).isEqualTo(RunState.CANCELLED);
        });
    }

    @Test
    void aWorkerSilentOnlyWhileTheBrokerIsDownIsNotJudgedLost() {
        AtomicBoolean up = new AtomicBoolean(true);
        RemoteRuns watch = new RemoteRuns(reported::add, SIXTY_SECONDS_TO_CLAIM, up::get, clock);
        RunRequested run = watched(watch, "gpu");
        clock.at(T0.plusSeconds(1));
        watch.onHeartbeat(beat("w1", 1, run.runId()));

        up.set(false);
        for (int s = 2; s <= 12; s++) {
            clock.at(T0.plusSeconds(s));
            watch.check();
        }
        up.set(true);
        for (int s = 13; s <= 60; s++) {
            clock.at(T0.plusSeconds(s));
            if (s >= 17) {
                watch.onHeartbeat(beat("w1", 1, run.runId()));   // its beats arrive once the consumer rejoined
            }
            watch.check();
        }

        assertThat(reported).isEmpty();
    }

    @Test
    void aWorkerThatDiedDuringAnOutageIsJudgedLostAMissWindowAndTheGraceAfterTheBrokerIsBack() {
        AtomicBoolean up = new AtomicBoolean(true);
        RemoteRuns watch = new RemoteRuns(reported::add, SIXTY_SECONDS_TO_CLAIM, up::get, clock);
        RunRequested run = watched(watch, "gpu");
        clock.at(T0.plusSeconds(1));
        watch.onHeartbeat(beat("w1", 1, run.runId()));

        up.set(false);
        clock.at(T0.plusSeconds(5));
        watch.check();
        up.set(true);
        clock.at(T0.plusSeconds(12));
        watch.check();                                   // back: 3 s of missed beats and 10 s of grace from here
        clock.at(T0.plusSeconds(24));
        watch.check();
        assertThat(reported).isEmpty();

        clock.at(T0.plusSeconds(25));
        watch.check();
        assertThat(reported).singleElement().satisfies(e -> assertThat(e.error()).startsWith("worker lost: worker w1"));
    }

    private RunRequested watched(String tag) {
        return watched(runs, tag);
    }

    private RunRequested watched(RemoteRuns watch, String tag) {
        RunRequested run = Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "remote", null, null, null, T0);
        clock.at(T0);
        watch.watch(new RemoteTask(UUID.randomUUID(), run.runId(), tag, T0.plusSeconds(60), T0, run, null), run);
        return run;
    }

    private WorkerHeartbeat beat(String worker, int intervalSeconds, UUID... held) {
        return new WorkerHeartbeat(UUID.randomUUID(), worker, List.of("gpu"), clock.instant(),
                intervalSeconds * 1000L, held.length, List.of(held));
    }
}
