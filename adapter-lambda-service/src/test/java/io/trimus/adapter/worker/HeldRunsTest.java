package io.trimus.adapter.worker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker's places: a claim under way holds one before its commit, and only a held run is listed in a beat. */
class HeldRunsTest {

    @Test
    void aWorkerReservesNoMorePlacesThanItsLimit() {
        HeldRuns held = new HeldRuns();

        assertThat(held.reserve(2)).isTrue();
        assertThat(held.reserve(2)).isTrue();
        assertThat(held.reserve(2)).as("a third claim at a limit of two").isFalse();
    }

    @Test
    void aReservedPlaceIsListedOnlyOnceItsClaimWentThrough() {
        HeldRuns held = new HeldRuns();
        UUID run = UUID.randomUUID();

        held.reserve(1);
        assertThat(held.snapshot()).isEmpty();
        held.claimed(run);

        assertThat(held.snapshot()).containsExactly(run);
        assertThat(held.reserve(1)).isFalse();
    }

    @Test
    void aClaimThatDidNotGoThroughFreesItsPlace() throws InterruptedException {
        HeldRuns held = new HeldRuns();
        held.reserve(1);

        held.unreserve();

        assertThat(held.awaitRoom(1, Duration.ZERO)).isTrue();
        assertThat(held.reserve(1)).isTrue();
    }

    @Test
    void anEndedRunFreesItsPlace() throws InterruptedException {
        HeldRuns held = new HeldRuns();
        UUID run = UUID.randomUUID();
        held.reserve(1);
        held.claimed(run);
        assertThat(held.awaitRoom(1, Duration.ZERO)).isFalse();

        held.ended(run);

        assertThat(held.awaitRoom(1, Duration.ZERO)).isTrue();
        assertThat(held.snapshot()).isEmpty();
    }

    @Test
    void aWaitingConsumerWakesWhenARunEnds() throws Exception {
        HeldRuns held = new HeldRuns();
        UUID run = UUID.randomUUID();
        held.reserve(1);
        held.claimed(run);
        Thread ender = new Thread(() -> held.ended(run));

        ender.start();
        boolean room = held.awaitRoom(1, Duration.ofMinutes(1));
        ender.join();

        assertThat(room).isTrue();
    }
}
