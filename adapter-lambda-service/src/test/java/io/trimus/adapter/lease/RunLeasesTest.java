package io.trimus.adapter.lease;

import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.support.TestConfig;
import io.trimus.events.AdapterLease;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run starts only once the broker acknowledged a beat that lists it as started and, read back in the lease log's one
 * order, no other process listed it as started before: acknowledged, refused and never-answered beats, a run another
 * process started first, and what the beats list as runs held, started and released.
 */
class RunLeasesTest {
    /** The lease log: every beat in the order the broker took them. */
    private final List<AdapterLease> log = new ArrayList<>();
    private final List<AdapterLease> sent = new ArrayList<>();

    private final StartOrder order = new StartOrder() {
        @Override
        public CompletableFuture<Void> readBack(UUID beatId) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String firstStarterOf(UUID runId) {
            return log.stream().filter(beat -> beat.started().contains(runId)).map(AdapterLease::instance)
                    .findFirst().orElse(null);
        }
    };

    private RunLeases leases(LeaseSender sender) {
        return new RunLeases(new InstanceName("adapter-test-1"), sender, order, run -> false,
                TestConfig.of("trimus.adapter-lease.interval", "PT2S", "trimus.adapter-lease.start-timeout", "PT0.3S"),
                null);
    }

    private CompletableFuture<Void> acknowledge(AdapterLease beat) {
        sent.add(beat);
        log.add(beat);
        return CompletableFuture.completedFuture(null);
    }

    @Test
    void aStartIsRecordedOnlyWhenTheBrokerAcknowledgedABeatListingIt() {
        RunLeases leases = leases(this::acknowledge);
        UUID queued = UUID.randomUUID();
        UUID starting = UUID.randomUUID();
        leases.hold(queued);
        leases.hold(starting);

        assertThat(leases.awaitStart(starting)).isEqualTo(RunStarts.Start.GO);

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
                .awaitStart(run)).isEqualTo(RunStarts.Start.NOT_RECORDED);
        assertThat(leases(beat -> new CompletableFuture<>()).awaitStart(run)).isEqualTo(RunStarts.Start.NOT_RECORDED);
        assertThat(leases(beat -> {
            throw new IllegalStateException("emitter closed");
        }).awaitStart(run)).isEqualTo(RunStarts.Start.NOT_RECORDED);
    }

    @Test
    void aRunAnotherProcessStartedFirstIsLetGoWithoutStarting() {
        UUID redelivered = UUID.randomUUID();
        log.add(new AdapterLease(UUID.randomUUID(), "adapter-test-2", AdapterLease.ADAPTER, java.time.Instant.now(),
                2000, List.of(redelivered), List.of(redelivered)));
        RunLeases leases = leases(this::acknowledge);
        leases.hold(redelivered);

        assertThat(leases.awaitStart(redelivered)).isEqualTo(RunStarts.Start.TAKEN);

        assertThat(leases.holds(redelivered)).isFalse();
        leases.beat();
        assertThat(sent.get(sent.size() - 1).held()).doesNotContain(redelivered);
        UUID own = UUID.randomUUID();
        assertThat(leases.awaitStart(own)).isEqualTo(RunStarts.Start.GO);
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
