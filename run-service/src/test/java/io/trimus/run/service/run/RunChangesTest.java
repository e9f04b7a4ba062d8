package io.trimus.run.service.run;

import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Signals reach the waiters of their run only, a busy waiter keeps the latest, and a waiter that left costs nothing. */
class RunChangesTest {
    private final RunChanges changes = new RunChanges();

    @Test
    void aSignalReachesEveryWaiterOfItsRunAndNoOther() {
        UUID run = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        AssertSubscriber<UUID> first = changes.of(run).subscribe().withSubscriber(AssertSubscriber.create(10));
        AssertSubscriber<UUID> second = changes.of(run).subscribe().withSubscriber(AssertSubscriber.create(10));
        AssertSubscriber<UUID> elsewhere = changes.of(other).subscribe().withSubscriber(AssertSubscriber.create(10));

        changes.changed(run);
        changes.changed(UUID.randomUUID());   // nobody waits on it: nothing happens, nothing is kept

        assertThat(first.getItems()).containsExactly(run);
        assertThat(second.getItems()).containsExactly(run);
        assertThat(elsewhere.getItems()).isEmpty();
        assertThat(changes.watchedRuns()).isEqualTo(2);
    }

    @Test
    void aWaiterStillBusyGetsTheLatestSignalOnceItAsksAgain() {
        UUID run = UUID.randomUUID();
        AssertSubscriber<UUID> busy = changes.of(run).subscribe().withSubscriber(AssertSubscriber.create(0));
        changes.changed(run);
        changes.changed(run);
        busy.request(5);
        assertThat(busy.getItems()).containsExactly(run);   // one read covers both; none is lost
        changes.changed(run);
        assertThat(busy.getItems()).hasSize(2);
    }

    @Test
    void aWaiterThatLeftIsForgottenWithItsRun() {
        UUID run = UUID.randomUUID();
        AssertSubscriber<UUID> first = changes.of(run).subscribe().withSubscriber(AssertSubscriber.create(10));
        AssertSubscriber<UUID> second = changes.of(run).subscribe().withSubscriber(AssertSubscriber.create(10));
        first.cancel();
        changes.changed(run);
        assertThat(first.getItems()).isEmpty();
        assertThat(second.getItems()).containsExactly(run);
        second.cancel();
        assertThat(changes.watchedRuns()).isZero();
    }
}
