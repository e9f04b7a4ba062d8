package io.trimus.run.service.recovery;

import io.trimus.events.AdapterLease;
import io.trimus.run.config.TrimusConfigs;
import io.trimus.testing.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process counts as lost only on what has been read: silence the book could not have seen (no observer beat came
 * back, or the reading just resumed after a gap) never condemns it.
 */
class LeaseBookTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final LeaseBook book = new LeaseBook(TrimusConfigs.with("trimus.run.observer-interval", "1s"), clock);
    private final UUID run = UUID.randomUUID();

    private void beat(String instance) {
        book.read(new AdapterLease(UUID.randomUUID(), instance, AdapterLease.ADAPTER, clock.instant(), 2000,
                List.of(run), List.of()));
    }

    private void observe() {
        book.read(new AdapterLease(UUID.randomUUID(), book.self(), AdapterLease.OBSERVER, clock.instant(), 1000,
                List.of(), List.of()));
    }

    /** Observer beats every second for {@code seconds}, the process beating too unless it is null. */
    private void pass(int seconds, String beating) {
        for (int i = 0; i < seconds; i++) {
            clock.advance(Duration.ofSeconds(1));
            if (beating != null) {
                beat(beating);
            }
            observe();
        }
    }

    @Test
    void aSilentProcessIsLostOnceTheGraceHasPassedInWhatWasRead() {
        pass(3, "adapter-1");
        assertThat(book.lost("adapter-1")).isFalse();
        assertThat(book.liveHolderOf(run)).contains("adapter-1");

        pass(10, null);
        assertThat(book.lost("adapter-1")).as("silent for 10 s: the grace is not over").isFalse();
        pass(1, null);
        assertThat(book.lost("adapter-1")).isTrue();
        assertThat(book.live()).doesNotContain("adapter-1");
        assertThat(book.liveHolderOf(run)).isEmpty();
    }

    @Test
    void nothingIsJudgedWhileNoObserverBeatComesBackAndEveryoneGetsAGraceAfterTheGap() {
        pass(3, "adapter-1");
        clock.advance(Duration.ofSeconds(60));   // the broker is away: nothing is read
        assertThat(book.current()).isFalse();
        assertThat(book.lost("adapter-1")).isFalse();

        observe();   // back: the first observer beat after the gap
        assertThat(book.current()).isTrue();
        assertThat(book.lost("adapter-1")).as("its producer has to find the broker too").isFalse();
        pass(10, null);
        assertThat(book.lost("adapter-1")).isFalse();
        pass(1, null);
        assertThat(book.lost("adapter-1")).isTrue();
    }

    @Test
    void aProcessNeverHeardFromIsJudgedFromWhenTheReadingBegan() {
        assertThat(book.lost("from-before-a-restart")).isFalse();
        pass(10, null);
        assertThat(book.lost("from-before-a-restart")).isFalse();
        pass(2, null);
        assertThat(book.lost("from-before-a-restart")).isTrue();
    }

    @Test
    void anotherReplicasObserverBeatsTellThisOneNothing() {
        pass(2, "adapter-1");
        clock.advance(Duration.ofSeconds(30));
        book.read(AdapterLease.observer("run-service-other", Duration.ofSeconds(1)));
        assertThat(book.current()).isFalse();
        assertThat(book.lost("adapter-1")).isFalse();
    }

    /**
     * Beats the broker held while it was away come back late: the first own beat read after the gap may have been sent
     * long before. Every process still gets a whole grace from when the reading resumed, not from when that beat was
     * sent (which judged every process lost the moment the broker was back).
     */
    @Test
    void afterAGapEveryProcessGetsAWholeGraceFromWhenTheReadingResumedHoweverLateTheBeatsComeBack() {
        pass(3, "adapter-1");
        List<AdapterLease> heldByTheBroker = new ArrayList<>();
        for (int i = 0; i < 30; i++) {   // sent every second while the broker is away, read only when it is back
            clock.advance(Duration.ofSeconds(1));
            heldByTheBroker.add(new AdapterLease(UUID.randomUUID(), book.self(), AdapterLease.OBSERVER, clock.instant(),
                    1000, List.of(), List.of()));
        }
        heldByTheBroker.forEach(book::read);

        assertThat(book.current()).isTrue();
        assertThat(book.lost("adapter-1")).as("its producer is only now finding the broker too").isFalse();
        pass(10, null);
        assertThat(book.lost("adapter-1")).isFalse();
        pass(1, null);
        assertThat(book.lost("adapter-1")).isTrue();
    }

    /**
     * The status event naming a new holder can be applied before the holder's first beat is read (two topics, two
     * consumers): the run is judged on when the holder took it, not on a silence the book could not have heard.
     */
    @Test
    void aHolderWhoseFirstBeatIsNotReadYetGetsAWholeGraceFromWhenItTookTheRun() {
        pass(30, null);
        assertThat(book.lost("adapter-new")).as("never heard of, in a book that has read for long").isTrue();
        Instant takenAt = clock.instant();
        assertThat(book.lost("adapter-new", takenAt)).isFalse();
        assertThat(book.takenBefore(List.of("adapter-new"))).contains(clock.instant().minusSeconds(10));

        pass(10, null);
        assertThat(book.lost("adapter-new", takenAt)).as("silent for 10 s: the grace is not over").isFalse();
        pass(1, null);
        assertThat(book.lost("adapter-new", takenAt)).isTrue();
        assertThat(book.silence("adapter-new", takenAt)).isEqualTo(Duration.ofSeconds(11));
        assertThat(book.heard("adapter-new")).isFalse();
    }

    /** A consumer rewound to its last committed offset reads beats again: they are neither its latest nor news. */
    @Test
    void aBeatReadAgainNeitherReplacesTheLatestNorRefreshesTheProcess() {
        UUID later = UUID.randomUUID();
        AdapterLease old = new AdapterLease(UUID.randomUUID(), "adapter-1", AdapterLease.ADAPTER, clock.instant(),
                2000, List.of(run), List.of());
        book.read(old);
        observe();
        clock.advance(Duration.ofSeconds(1));
        book.read(new AdapterLease(UUID.randomUUID(), "adapter-1", AdapterLease.ADAPTER, clock.instant(), 2000,
                List.of(run, later), List.of()));
        pass(8, null);

        book.read(old);   // the rebalance after a broker restart: read again from an earlier offset
        assertThat(book.heldBy("adapter-1")).containsExactlyInAnyOrder(run, later);
        pass(3, null);
        assertThat(book.lost("adapter-1")).as("11 s after its latest beat, the old one read again or not").isTrue();
    }

    /** While no own beat comes back the book says for how long, so the recovery can say why it waits. */
    @Test
    void theBookSaysHowLongItHasNotBeenAbleToJudge() {
        pass(2, null);
        assertThat(book.stalledFor()).isEmpty();
        clock.advance(Duration.ofSeconds(90));
        assertThat(book.stalledFor()).contains(Duration.ofSeconds(90));
        observe();
        assertThat(book.stalledFor()).isEmpty();
    }
}
