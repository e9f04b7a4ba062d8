package io.trimus.egress.proxy;

import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.proxy.intercept.InterceptedTarget;
import io.trimus.egress.sandbox.Sandbox;

import java.net.InetAddress;
import java.time.Instant;
import java.util.Map;

/**
 * What one proxy connection learned and did, as it learns it: whose it is, where it asked to go, what was decided,
 * the address dialled and the bytes carried. Its decisions read it; its anomalies and, when it ends, its
 * {@link DecisionLog} line and connection record are written from it. Touched only on the connection's event loop.
 */
final class ConnectionFacts {
    final ProxyWay way;
    final String sourceIp;
    final Instant startedAt = Instant.now();
    private final long startedNanos = System.nanoTime();

    Sandbox sandbox;
    String protocol;
    String host;
    int port = -1;
    boolean enforced = true;
    boolean tlsRequired = true;
    /** Whether the connection is a tunnel (a CONNECT, or a steered TLS connection), once its admission began. */
    boolean tunnel;
    /** The adapter service's probe was answered: nothing to log or record. */
    boolean checked;
    InetAddress address;
    ProxyRefusal refusal;
    long bytesUp;
    long bytesDown;
    /** The sandbox's masked secrets, when it holds any. */
    RunMasks masks;
    /** Whether the connection goes to the masking interceptor instead of the host. */
    boolean intercepting;
    /** Whether the host has request rules here: every request is checked (a TLS one through the interceptor). */
    boolean ruled;
    /** What the interceptor is told about the connection, once it is dialled. */
    InterceptedTarget intercepted;

    ConnectionFacts(ProxyWay way, String sourceIp, Sandbox sandbox) {
        this.way = way;
        this.sourceIp = sourceIp;
        this.sandbox = sandbox;
        this.protocol = way == ProxyWay.TRANSPARENT_TLS ? "TLS" : "HTTP";
    }

    /** An anomaly for this connection's host (cut to a DNS name's length: a Host may be longer). */
    void recordAnomaly(ProxyServer.Parts parts, ProxyRefusal why, boolean enforcedHere) {
        String name = host == null ? "" : host.length() > 253 ? host.substring(0, 253) : host;
        parts.anomalies().record(sandbox, sourceIp, name, protocol, why.reason(), enforcedHere);
    }

    /**
     * The connection ended: its decision log line and connection record, unless it was the adapter service's probe.
     *
     * @param dialled whether a destination was dialled
     */
    void ended(ProxyServer.Parts parts, boolean dialled) {
        if (checked) {
            return;
        }
        String decision = refusal != null ? "refused" : dialled ? "allowed" : "abandoned";
        String reason = refusal != null ? refusal.reason() : dialled ? "-" : "closed_before_decision";
        DecisionLog.ended(parts.connections(), way, sourceIp, sandbox, host, port, address, decision, reason, enforced,
                bytesUp, bytesDown, startedAt, (System.nanoTime() - startedNanos) / 1_000_000,
                intercepted == null ? Map.of() : Map.copyOf(intercepted.swaps()));
    }
}
