package io.trimus.egress.connection;

import io.trimus.egress.sandbox.Sandbox;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/** Connection records as the proxy hands them over, for tests. */
public final class TestConnections {
    private TestConnections() {
    }

    /** A sandbox of {@code company} running {@code run}. */
    public static Sandbox sandbox(UUID company, UUID run) {
        return new Sandbox("172.30.0.23", company, UUID.randomUUID(), run, "c0ffee");
    }

    /** An allowed CONNECT to {@code host:port} that started at {@code startedAt} (microseconds, as stored). */
    public static ConnectionRecord allowed(Sandbox sandbox, String host, int port, long out, long in,
                                           Instant startedAt) {
        return new ConnectionRecord(sandbox, "explicit", host, port, "203.0.113.7", "allowed", "-", true, out, in,
                startedAt.truncatedTo(ChronoUnit.MICROS), 1457);
    }

    /** A refused connection to {@code host:port}, nothing dialled or carried. */
    public static ConnectionRecord refused(Sandbox sandbox, String host, int port, String reason, Instant startedAt) {
        return new ConnectionRecord(sandbox, "explicit", host, port, null, "refused", reason, true, 0, 0,
                startedAt.truncatedTo(ChronoUnit.MICROS), 11);
    }
}
