package io.trimus.run.service;

import io.trimus.events.AdapterLease;
import io.trimus.testing.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process counts as lost only on what has been read: silence the book could not have seen (no observer beat came
 * back, or the reading just resumed after a gap) never condemns it.
 */
class LeaseBookTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final LeaseBook book = new LeaseBook(Duration.ofSeconds(1), clock);
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
}
