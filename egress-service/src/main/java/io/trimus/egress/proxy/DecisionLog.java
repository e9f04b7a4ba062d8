package io.trimus.egress.proxy;

import io.trimus.egress.sandbox.Sandbox;
import org.jboss.logging.Logger;

import java.net.InetAddress;

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
