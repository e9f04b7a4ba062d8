package io.trimus.egress.proxy.admission;

import java.time.Duration;

/**
 * Limits of the proxy: how much of a connection is read before it says where it goes, how many one sandbox holds,
 * and how long each may take.
 *
 * @param maxHeadBytes             longest request head read
 * @param maxConnectionsPerSandbox connections one source address may hold open at once
 * @param idleTimeout              a connection with no traffic either way for this long is closed
 * @param totalTimeout             a connection is closed after this long whatever its traffic
 * @param connectTimeout           how long dialling a destination may take
 * @param headTimeout              how long a new connection may take to say where it goes (request head or
 *                                 ClientHello), however slowly it trickles
 */
public record ProxyLimits(int maxHeadBytes, int maxConnectionsPerSandbox, Duration idleTimeout, Duration totalTimeout,
                          Duration connectTimeout, Duration headTimeout) {
    public ProxyLimits {
        if (maxHeadBytes < 64 || maxConnectionsPerSandbox < 1) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_PROXY_MAX_HEAD_BYTES must be at least 64 and"
                    + " TRIMUS_EGRESS_PROXY_MAX_CONNECTIONS_PER_SANDBOX at least 1");
        }
    }
}
