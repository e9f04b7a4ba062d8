package io.trimus.egress.connection;

import io.trimus.egress.sandbox.Sandbox;

import java.time.Instant;
import java.util.Map;

/**
 * One sandbox connection through the egress proxy, as it ended: what it asked for, what was decided, what it carried.
 *
 * @param sandbox        the attributed sandbox (never null: unattributed connections are anomalies, not records)
 * @param way            {@code explicit} (through HTTPS_PROXY / HTTP_PROXY on 3128) or {@code transparent} (steered
 *                       by the resolver to 443 / 80)
 * @param host           the normalised host asked for
 * @param port           the destination port
 * @param address        the address dialled, null when none was
 * @param decision       {@code allowed}, {@code refused} or {@code abandoned}
 * @param reason         the refusal's reason, {@code -} when allowed
 * @param enforced       false when the company's policy is in report mode and the connection went through although
 *                       the host is not on its allowlist
 * @param bytesOut       bytes from the sandbox to the destination
 * @param bytesIn        bytes from the destination to the sandbox
 * @param startedAt      when the connection was accepted
 * @param durationMillis how long it lasted
 * @param maskedSwaps    for a connection whose TLS the proxy terminated for masked secrets: how many requests had
 *                       each secret (by name) swapped in; empty otherwise
 */
public record ConnectionRecord(Sandbox sandbox, String way, String host, int port, String address, String decision,
                               String reason, boolean enforced, long bytesOut, long bytesIn, Instant startedAt,
                               long durationMillis, Map<String, Integer> maskedSwaps) {
    public ConnectionRecord {
        maskedSwaps = maskedSwaps == null ? Map.of() : Map.copyOf(maskedSwaps);
    }

    /** A connection that swapped no masked secret. */
    public ConnectionRecord(Sandbox sandbox, String way, String host, int port, String address, String decision,
                            String reason, boolean enforced, long bytesOut, long bytesIn, Instant startedAt,
                            long durationMillis) {
        this(sandbox, way, host, port, address, decision, reason, enforced, bytesOut, bytesIn, startedAt,
                durationMillis, Map.of());
    }
}
