package io.trimus.egress.connection;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.trimus.egress.sandbox.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.trimus.egress.connection.TestConnections.allowed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The proxy's side of the connection record: handing a record over never blocks and never throws, whatever the
 * database does; a full buffer drops new records and counts them.
 */
class BufferedConnectionRecorderTest {
    private static final Sandbox SANDBOX = TestConnections.sandbox(UUID.randomUUID(), UUID.randomUUID());

    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    private BufferedConnectionRecorder recorder(ConnectionBuffer buffer, int batchSize) {
        // no repository and no writer: nothing ever drains the buffer, as when the database is away
        return new BufferedConnectionRecorder(buffer, batchSize, Duration.ofMillis(500), null, Clock.systemUTC(),
                metrics);
    }

    private double dropped(String reason) {
        return metrics.get("trimus.egress.connections.dropped").tag("reason", reason).counter().count();
    }

    @Test
    void aFullBufferDropsNewRecordsAndCountsThemWithoutBlocking() {
        ConnectionBuffer buffer = new ConnectionBuffer(8);
        BufferedConnectionRecorder recorder = recorder(buffer, 256);
        List<ConnectionRecord> sent = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            sent.add(allowed(SANDBOX, "host-" + i + ".example", 443, i, i, Instant.now()));
        }

        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> sent.forEach(recorder::record));

        assertThat(buffer.size()).isEqualTo(8);
        assertThat(dropped("buffer_full")).isEqualTo(99_992);
        assertThat(buffer.drain(100)).containsExactlyElementsOf(sent.subList(0, 8));
        assertThat(metrics.get("trimus.egress.connections.queued").gauge().value()).isZero();
    }

    @Test
    void concurrentEventLoopsNeverOverfillTheBuffer() throws InterruptedException {
        ConnectionBuffer buffer = new ConnectionBuffer(1000);
        BufferedConnectionRecorder recorder = recorder(buffer, 256);
        int threads = 8;
        int each = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        recorder.record(allowed(SANDBOX, "api.example.com", 443, 1, 1, Instant.now()));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
            thread.start();
        }
        start.countDown();

        assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(buffer.size()).isEqualTo(1000);
        assertThat(buffer.drain(5000)).hasSize(1000);
        assertThat(dropped("buffer_full")).isEqualTo(threads * each - 1000);
    }

    @Test
    void aFullBatchWakesTheWriterOnceUntilItRuns() {
        ConnectionBuffer buffer = new ConnectionBuffer(100);
        BufferedConnectionRecorder recorder = recorder(buffer, 4);
        AtomicInteger wakes = new AtomicInteger();
        recorder.wakeWith(wakes::incrementAndGet);

        for (int i = 0; i < 3; i++) {
            recorder.record(allowed(SANDBOX, "api.example.com", 443, 1, 1, Instant.now()));
        }
        assertThat(wakes).hasValue(0);
        for (int i = 0; i < 10; i++) {
            recorder.record(allowed(SANDBOX, "api.example.com", 443, 1, 1, Instant.now()));
        }
        assertThat(wakes).hasValue(1);
    }

    @Test
    void recordsThatNameNoCompanyAndRunAreCountedNotQueuedAndNothingThrows() {
        ConnectionBuffer buffer = new ConnectionBuffer(8);
        BufferedConnectionRecorder recorder = recorder(buffer, 256);

        recorder.record(null);
        recorder.record(allowed(null, "api.example.com", 443, 1, 1, Instant.now()));
        recorder.record(allowed(new Sandbox("172.30.0.9", null, null, null, null), "x.example", 443, 1, 1,
                Instant.now()));
        recorder.wakeWith(() -> {
            throw new IllegalStateException("event bus gone");
        });
        ConnectionBuffer small = new ConnectionBuffer(1);
        BufferedConnectionRecorder eager = recorder(small, 1);
        eager.wakeWith(() -> {
            throw new IllegalStateException("event bus gone");
        });
        eager.record(allowed(SANDBOX, "api.example.com", 443, 1, 1, Instant.now()));

        assertThat(buffer.size()).isZero();
        assertThat(dropped("unattributed")).isEqualTo(3);
        assertThat(small.size()).isEqualTo(1);
        assertThat(dropped("failed")).isZero();
    }

    @Test
    void rowsAreBoundedToTheirColumns() {
        String longHost = "a".repeat(300) + ".example";
        ConnectionRecord record = new ConnectionRecord(SANDBOX, "explicit-and-much-longer", longHost, 443,
                "2001:db8::1", "refused", "r".repeat(100) + "\u0000", true, -5, 7, null, -1);

        EgressConnection row = EgressConnection.of(record);

        assertThat(row.host).hasSize(253);
        assertThat(row.reason).hasSize(64).doesNotContain("\u0000");
        assertThat(row.way).hasSize(16);
        assertThat(row.bytesOut).isZero();
        assertThat(row.durationMs).isZero();
        assertThat(row.startedAt).isNotNull();
        assertThat(EgressConnection.bounded("ab\uD83D\uDE00", 3, null)).isEqualTo("ab");
        assertThat(EgressConnection.bounded(null, 3, "-")).isEqualTo("-");
    }
}
