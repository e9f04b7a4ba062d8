package io.trimus.adapter.lease;

import io.trimus.events.AdapterLease;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run starts only once the broker acknowledged a beat that lists it as started: acknowledged, refused and
 * never-answered beats, and what the beats list as runs are held, started and released.
 */
class RunLeasesTest {
    private final List<AdapterLease> sent = new ArrayList<>();

    private RunLeases leases(LeaseSender sender) {
        return new RunLeases(new InstanceName("adapter-test-1"), sender, Duration.ofSeconds(2),
                Duration.ofMillis(300), null);
    }

    private CompletableFuture<Void> acknowledge(AdapterLease beat) {
        sent.add(beat);
        return CompletableFuture.completedFuture(null);
    }

    @Test
    void aStartIsRecordedOnlyWhenTheBrokerAcknowledgedABeatListingIt() {
        RunLeases leases = leases(this::acknowledge);
        UUID queued = UUID.randomUUID();
        UUID starting = UUID.randomUUID();
        leases.hold(queued);
        leases.hold(starting);

        assertThat(leases.awaitStart(starting)).isTrue();

        AdapterLease beat = sent.get(sent.size() - 1);
        assertThat(beat.instance()).isEqualTo("adapter-test-1");
        assertThat(beat.role()).isEqualTo(AdapterLease.ADAPTER);
        assertThat(beat.intervalMs()).isEqualTo(2000);
        assertThat(beat.held()).containsExactly(queued, starting);
        assertThat(beat.started()).containsExactly(starting);
    }

    @Test
    void aRefusedOrUnansweredBeatMeansTheRunMustNotStart() {
        UUID run = UUID.randomUUID();
        assertThat(leases(beat -> CompletableFuture.failedFuture(new IllegalStateException("broker gone")))
                .awaitStart(run)).isFalse();
        assertThat(leases(beat -> new CompletableFuture<>()).awaitStart(run)).isFalse();
        assertThat(leases(beat -> {
            throw new IllegalStateException("emitter closed");
        }).awaitStart(run)).isFalse();
    }

    @Test
    void aReleasedRunIsNoLongerListed() {
        RunLeases leases = leases(this::acknowledge);
        UUID ended = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        leases.awaitStart(ended);
        leases.hold(other);

        leases.release(ended);
        leases.beat();

        AdapterLease beat = sent.get(sent.size() - 1);
        assertThat(beat.held()).containsExactly(other);
        assertThat(beat.started()).isEmpty();
        assertThat(leases.holds(ended)).isFalse();
    }
}
