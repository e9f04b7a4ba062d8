package io.trimus.commons.streams;

import io.smallrye.config.WithDefault;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stream bounds every service applies: the re-check period's default keeps the 30-second promise, a check that
 * says no or cannot answer ends a stream (and stops its source), and places are counted per key, capped and given back
 * once.
 */
class StreamBoundsTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void theDefaultRecheckPeriodIsAtMostThirtySecondsAndTheDefaultCapTen() throws Exception {
        Duration recheck = Duration.parse("PT" + StreamLimits.class.getMethod("recheck")
                .getAnnotation(WithDefault.class).value().toUpperCase());
        assertThat(recheck).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(StreamLimits.class.getMethod("maxPerCaller").getAnnotation(WithDefault.class).value())
                .isEqualTo("10");
    }

    @Test
    void aStreamEndsAtTheFirstCheckThatSaysNoAndItsSourceIsCancelled() {
        AtomicInteger checks = new AtomicInteger();
        AtomicBoolean cancelled = new AtomicBoolean();
        Multi<Long> endless = Multi.createFrom().ticks().every(Duration.ofMillis(5))
                .onCancellation().invoke(() -> cancelled.set(true));

        AssertSubscriber<Long> stream = Recheck.whileAllowed(endless, Duration.ofMillis(20),
                () -> Uni.createFrom().item(checks.incrementAndGet() < 3))
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        stream.awaitCompletion(WAIT);
        assertThat(checks).hasValue(3);
        assertThat(cancelled).isTrue();
        assertThat(stream.getItems()).isNotEmpty();
    }

    @Test
    void aCheckThatFailsEndsTheStreamAsANoWould() {
        AssertSubscriber<Long> stream = Recheck.whileAllowed(Multi.createFrom().<Long>nothing(), Duration.ofMillis(10),
                        () -> Uni.createFrom().failure(new IllegalStateException("run-service is not answering")))
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        stream.awaitCompletion(WAIT);
    }

    @Test
    void aStreamThatEndsByItselfCompletesWithItsItemsAndStopsTheChecks() {
        AtomicInteger checks = new AtomicInteger();
        AssertSubscriber<Integer> stream = Recheck.whileAllowed(Multi.createFrom().items(1, 2, 3), Duration.ofHours(1),
                        () -> Uni.createFrom().item(() -> checks.incrementAndGet() > 0))
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));

        stream.awaitCompletion(WAIT).assertItems(1, 2, 3);
        assertThat(checks).hasValue(0);
    }

    @Test
    void placesAreCountedPerKeyCappedAndGivenBackOnce() {
        Places<String> places = new Places<>();
        Places.Place first = places.take("alice", 2).orElseThrow();
        Places.Place second = places.take("alice", 2).orElseThrow();
        assertThat(places.take("alice", 2)).isEmpty();
        assertThat(places.take("bob", 2)).isPresent();

        first.giveBack();
        first.giveBack();
        assertThat(places.taken("alice")).isEqualTo(1);
        Places.Place third = places.take("alice", 2).orElseThrow();
        assertThat(places.take("alice", 2)).isEmpty();

        second.and(third).giveBack();
        assertThat(places.taken("alice")).isZero();
    }

    @Test
    void aCredentialsKeyIsItsHashNeverTheSecret() {
        assertThat(CredentialKey.of("trimus_t_secret")).isEqualTo(CredentialKey.of("trimus_t_secret"))
                .isNotEqualTo(CredentialKey.of("trimus_t_other"));
        assertThat(CredentialKey.of("trimus_t_secret").toString()).doesNotContain("trimus_t_secret");
    }

    @Test
    void aCredentialHoldsAtMostItsStreamsAndAGuardedStreamGivesItsPlaceBackWhenItEnds() {
        StreamLimits limits = limits(Duration.ofHours(1), 2);
        StreamLeases leases = new StreamLeases();
        StreamLease first = leases.take("trimus_t_secret", limits);
        StreamLease second = leases.take("trimus_t_secret", limits);
        assertThatThrownBy(() -> leases.take("trimus_t_secret", limits)).isInstanceOf(TooManyStreams.class);
        assertThat(leases.take("trimus_t_other", limits)).isNotNull();

        second.guard(Multi.createFrom().items(1, 2), () -> Uni.createFrom().item(true))
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE))
                .awaitCompletion(WAIT).assertItems(1, 2);
        assertThat(leases.taken("trimus_t_secret")).isEqualTo(1);

        first.giveBack();
        first.giveBack();
        assertThat(leases.taken("trimus_t_secret")).isZero();
    }

    private static StreamLimits limits(Duration recheck, int maxPerCaller) {
        return new StreamLimits() {
            @Override
            public Duration recheck() {
                return recheck;
            }

            @Override
            public int maxPerCaller() {
                return maxPerCaller;
            }
        };
    }
}
