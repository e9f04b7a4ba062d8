package io.trimus.egress.proxy;

import io.trimus.egress.connection.ConnectionRecord;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.proxy.admission.ProxyWay;
import io.trimus.egress.sandbox.Sandbox;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.time.Instant;
import java.util.Map;

/**
 * The proxy's one structured line per connection, allowed or refused, written when it ends: who (source, run,
 * company), where to (host, port, the address dialled), the decision and its reason, bytes each way and how long it
 * lasted. Never a byte of what was carried. The decision is {@code allowed} (a destination was dialled),
 * {@code refused} (with the refusal's reason) or {@code abandoned} (the client left, or idled out, before asking);
 * {@code enforced=false} marks a connection let through in report mode although its host is not on the allowlist.
 */
final class DecisionLog {
    private static final Logger LOG = Logger.getLogger("io.trimus.egress.proxy.decision");

    private DecisionLog() {
    }

    /**
     * A connection ended: its log line, and for an attributed sandbox its record in the run's connections (with the
     * masked secrets swapped in, per secret name).
     */
    static void ended(ConnectionRecorder connections, ProxyWay way, String sourceIp, Sandbox sandbox, String host,
                      int port, InetAddress address, String decision, String reason, boolean enforced, long bytesUp,
                      long bytesDown, Instant startedAt, long durationMillis, Map<String, Integer> maskedSwaps) {
        log(way, sourceIp, sandbox, host, port, address, decision, reason, enforced, bytesUp, bytesDown,
                durationMillis);
        if (sandbox == null) {
            return;
        }
        try {
            connections.record(new ConnectionRecord(sandbox, way.label(), host == null ? "" : host, port,
                    address == null ? null : address.getHostAddress(), decision, reason, enforced, bytesUp,
                    bytesDown, startedAt, durationMillis, maskedSwaps));
        } catch (RuntimeException e) {
            // the connection is over either way; the recorder counts and logs its own failures
        }
    }

    static void log(ProxyWay way, String sourceIp, Sandbox sandbox, String host, int port, InetAddress address,
                    String decision, String reason, boolean enforced, long bytesUp, long bytesDown,
                    long durationMillis) {
        LOG.infof("proxy way=%s source=%s run=%s company=%s host=%s port=%s address=%s decision=%s reason=%s"
                        + " enforced=%s up=%d down=%d duration_ms=%d",
                way.label(), sourceIp, sandbox == null ? "-" : sandbox.runId(), sandbox == null ? "-" : sandbox.companyId(),
                host == null ? "-" : host, port < 0 ? "-" : port, address == null ? "-" : address.getHostAddress(),
                decision, reason, enforced, bytesUp, bytesDown, durationMillis);
    }
}
