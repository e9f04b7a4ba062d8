package io.trimus.egress.dns;

import io.trimus.events.EgressAnomaly;
import org.xbill.DNS.Rcode;

/**
 * What the resolver does with one query: forward it, or answer it locally with an rcode (and, for denials, an
 * anomaly). The tag is the {@code decision} label of {@code trimus_egress_dns_queries_total}.
 */
public enum Verdict {
    /**
     * Allow-listed A, AAAA or CNAME question of an attributed sandbox: steered to the egress proxy (A: the proxy's
     * address; AAAA, CNAME: no data), or, when the transparent proxy is off, answered from the cache or the upstream.
     */
    FORWARD(Rcode.NOERROR, null, "allowed"),
    /**
     * A name the company did not allow-list, asked while its egress policy is in report mode: answered like an
     * allowed one, and recorded as a {@code not_allowlisted} anomaly that was not enforced.
     */
    REPORTED(Rcode.NOERROR, EgressAnomaly.NOT_ALLOWLISTED, "reported"),
    /**
     * This replica cannot confirm its copy of the egress policy current
     * ({@link io.trimus.egress.policy.PolicyCurrency}): SERVFAIL (try again, another replica may answer), never
     * upstream, no anomaly (nothing was denied by policy).
     */
    POLICY_STALE(Rcode.SERVFAIL, null, "policy_stale"),
    /** The sandbox's company did not allow-list the name (or it is no valid host name): NXDOMAIN, never upstream. */
    NOT_ALLOWLISTED(Rcode.NXDOMAIN, EgressAnomaly.NOT_ALLOWLISTED, "not_allowlisted"),
    /**
     * A name the company allow-listed but the sandbox's agent's own list does not (issue 31: an agent's list narrows
     * its company's): NXDOMAIN, never upstream, anomaly {@code agent_not_allowlisted}.
     */
    AGENT_NOT_ALLOWLISTED(Rcode.NXDOMAIN, EgressAnomaly.AGENT_NOT_ALLOWLISTED, "agent_not_allowlisted"),
    /**
     * As {@link #AGENT_NOT_ALLOWLISTED}, asked while the company's egress policy is in report mode: answered like an
     * allowed name, recorded as an {@code agent_not_allowlisted} anomaly that was not enforced.
     */
    AGENT_REPORTED(Rcode.NOERROR, EgressAnomaly.AGENT_NOT_ALLOWLISTED, "agent_reported"),
    /**
     * A name the sandbox may resolve otherwise, under a base domain its names scored at the tunnelling threshold for,
     * with TRIMUS_EGRESS_TUNNELLING_ACTION=block: REFUSED, never upstream, anomaly {@code suspected_tunnelling}.
     */
    TUNNELLING(Rcode.REFUSED, EgressAnomaly.SUSPECTED_TUNNELLING, "tunnelling"),
    /** Any query type other than A, AAAA and CNAME: REFUSED, even for an allow-listed name. */
    QTYPE_DENIED(Rcode.REFUSED, EgressAnomaly.QTYPE_DENIED, "qtype_denied"),
    /** No sandbox is registered at the source address: REFUSED. */
    UNATTRIBUTED_SOURCE(Rcode.REFUSED, EgressAnomaly.UNATTRIBUTED_SOURCE, "unattributed_source"),
    /**
     * The source address asked more than its TRIMUS_EGRESS_DNS_PER_SANDBOX_QPS budget allows: REFUSED, decided before
     * the policy, no anomaly (the flood is counted here and noted in the log, not a row per query).
     */
    RATE_LIMITED(Rcode.REFUSED, null, "rate_limited"),
    /** Firefox's DoH canary {@code use-application-dns.net}: NXDOMAIN tells the browser to keep using this resolver. */
    DOH_CANARY(Rcode.NXDOMAIN, null, "doh_canary"),
    /**
     * The adapter service's probe {@link io.trimus.events.ResolverCheck#NAME}, from any source: NOERROR without
     * records, never forwarded, no anomaly.
     */
    RESOLVER_CHECK(Rcode.NOERROR, null, "resolver_check"),
    /** Not exactly one question, opcode other than QUERY, or class other than IN. */
    FORMERR(Rcode.FORMERR, null, "formerr");

    private final int rcode;
    private final String anomalyReason;
    private final String tag;

    Verdict(int rcode, String anomalyReason, String tag) {
        this.rcode = rcode;
        this.anomalyReason = anomalyReason;
        this.tag = tag;
    }

    /** The rcode a locally answered query gets. */
    public int rcode() {
        return rcode;
    }

    /** The {@link EgressAnomaly} reason this verdict reports, or null when it is no denial worth a row. */
    public String anomalyReason() {
        return anomalyReason;
    }

    /** Whether the name is answered as an allowed one (allowed, or let through in report mode). */
    public boolean answered() {
        return this == FORWARD || this == REPORTED || this == AGENT_REPORTED;
    }

    /** Whether a denial of this verdict was enforced (false: reported only, in report mode). */
    public boolean enforced() {
        return this != REPORTED && this != AGENT_REPORTED;
    }

    /**
     * Whether the name is one the sandbox chose to use, and so is scored for tunnelling: every verdict of the
     * sandbox's policy, not the resolver's own names, a stale policy or a malformed query.
     */
    public boolean scored() {
        return this == FORWARD || this == REPORTED || this == NOT_ALLOWLISTED || this == AGENT_NOT_ALLOWLISTED
                || this == AGENT_REPORTED || this == QTYPE_DENIED;
    }

    /** The metric label. */
    public String tag() {
        return tag;
    }
}
