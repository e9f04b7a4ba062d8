package io.trimus.egress.anomaly;

import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class AnomalyHandOffTest {

    @Test
    void eventsAreSentOnTheHandOffThreadNotTheCallers() {
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        List<EgressAnomaly> sent = Collections.synchronizedList(new ArrayList<>());
        AnomalyHandOff handOff = new AnomalyHandOff("test-hand-off", 16, anomaly -> {
            threads.add(Thread.currentThread().getName());
            sent.add(anomaly);
        });
        List<EgressAnomaly> offered = List.of(anomaly(), anomaly(), anomaly());

        offered.forEach(handOff::offer);
        assertThat(handOff.close(Duration.ofSeconds(10))).isTrue();

        assertThat(sent).containsExactlyElementsOf(offered);
        assertThat(threads).containsOnly("test-hand-off");
        assertThat(handOff.inline()).isZero();
    }

    @Test
    void aFullQueueSendsOnTheCallersThreadAndLosesNothing() throws InterruptedException {
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        List<EgressAnomaly> sent = Collections.synchronizedList(new ArrayList<>());
        AnomalyHandOff handOff = new AnomalyHandOff("test-hand-off", 2, anomaly -> {
            if (Thread.currentThread().getName().equals("test-hand-off")) {
                sending.countDown();
                await(release);
            }
            threads.add(Thread.currentThread().getName());
            sent.add(anomaly);
        });
        List<EgressAnomaly> offered = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            offered.add(anomaly());
        }

        handOff.offer(offered.get(0));
        assertThat(sending.await(10, TimeUnit.SECONDS)).isTrue();   // the thread holds event 0
        offered.subList(1, 6).forEach(handOff::offer);                  // 1, 2 queued; 3, 4, 5 sent right here
        assertThat(handOff.inline()).isEqualTo(3);
        assertThat(sent).containsExactlyElementsOf(offered.subList(3, 6));
        release.countDown();
        assertThat(handOff.close(Duration.ofSeconds(10))).isTrue();

        assertThat(sent).containsExactlyInAnyOrderElementsOf(offered);
        assertThat(threads.stream().filter("test-hand-off"::equals)).hasSize(3);
    }

    @Test
    void closeSendsWhatIsQueuedAndLaterEventsGoOutOnTheCallersThread() {
        List<EgressAnomaly> sent = Collections.synchronizedList(new ArrayList<>());
        AnomalyHandOff handOff = new AnomalyHandOff("test-hand-off", 1024, sent::add);
        List<EgressAnomaly> offered = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            offered.add(anomaly());
            handOff.offer(offered.get(i));
        }

        assertThat(handOff.close(Duration.ofSeconds(10))).isTrue();
        assertThat(sent).containsExactlyElementsOf(offered);

        EgressAnomaly late = anomaly();
        handOff.offer(late);
        assertThat(sent).hasSize(501).endsWith(late);
        assertThat(handOff.inline()).isEqualTo(1);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static EgressAnomaly anomaly() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), null, null, null, "172.30.0.5",
                "exfil.example", "A", "not_allowlisted", 1, now, now, true);
    }
}
