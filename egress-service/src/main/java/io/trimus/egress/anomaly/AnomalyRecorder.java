package io.trimus.egress.anomaly;

import io.trimus.egress.sandbox.Sandbox;

import java.net.InetAddress;

/**
 * Where the resolver and the proxy report a denied lookup or connection (or, in report mode, one that would have
 * been denied). Never blocks and never waits on Kafka or the database: the
 * implementation folds repeats per (sandbox, name, reason) and publishes {@code trimus.egress.anomalies}.
 */
public interface AnomalyRecorder {

    /**
     * Records one denied lookup.
     *
     * @param sandbox  the attributed sandbox, or null for an unattributed source
     * @param sourceIp the address the query came from
     * @param qname    the normalised name asked for (or the raw one when it could not be normalised)
     * @param qtype    the query type's mnemonic, e.g. {@code A}, {@code TXT}
     * @param reason   one of the {@code EgressAnomaly} reasons
     * @param enforced false when the company's report mode let it through
     */
    void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason, boolean enforced);

    /**
     * Records one denied lookup, for the resolver's in-place path: {@code qname} (already normalised) is read during
     * the call only. An implementation should not allocate for a repeat it folds.
     */
    default void record(Sandbox sandbox, InetAddress source, CharSequence qname, String qtype, String reason,
                        boolean enforced) {
        record(sandbox, source.getHostAddress(), qname.toString(), qtype, reason, enforced);
    }

    /**
     * Records one request its host's request rules refused (reason {@code proxy_request_denied}), with its method
     * and path. An implementation that cannot carry them records the host alone.
     *
     * @param protocol how the connection came in: {@code TLS} (intercepted) or {@code HTTP}
     */
    default void recordRequest(Sandbox sandbox, String sourceIp, String host, String protocol, String method,
                               String path, boolean enforced) {
        record(sandbox, sourceIp, host, protocol, "proxy_request_denied", enforced);
    }

    /** Records one denial that was enforced. */
    default void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
        record(sandbox, sourceIp, qname, qtype, reason, true);
    }
}
