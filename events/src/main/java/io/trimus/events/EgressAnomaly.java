package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code io.trimus.egress.anomaly.v1} on {@link Topics#EGRESS_ANOMALIES}: egress-service denied DNS lookups, or
 * connections through its egress proxy, of one sandbox for one name. Repeats within the rate-limit window are folded
 * into one event: {@code count} lookups or connections between {@code first_seen} and {@code last_seen}. Sandbox
 * fields are null for an unattributed source.
 *
 * @param qname  the name asked for; for a {@code proxy_*} reason the host the connection asked for (CONNECT target,
 *               TLS SNI or HTTP Host), with {@code :port} when the port is neither 443 nor 80
 * @param qtype  the DNS query type, e.g. {@code A}; for a {@code proxy_*} reason how the connection came in:
 *               {@code CONNECT} (explicit proxy), {@code TLS} (steered, port 443) or {@code HTTP} (steered port 80, or
 *               absolute-form through the explicit proxy)
 * @param reason the resolver's {@code not_allowlisted}, {@code qtype_denied} or {@code unattributed_source}; the
 *               proxy's {@code proxy_not_allowlisted}, {@code proxy_address_denied}, {@code proxy_port_denied} or
 *               {@code proxy_host_mismatch}, {@code proxy_malformed_request} (a request whose syntax or body
 *               framing the proxy does not read unambiguously: request smuggling lives there) or
 *               {@code proxy_encrypted_client_hello} (a TLS ClientHello with Encrypted Client Hello, whose real
 *               server name the proxy cannot see), or {@code masked_secret_out_of_scope} (a masked secret's
 *               surrogate sent to a host outside its scope; qtype {@code HTTP}) or {@code masked_request_refused}
 *               (a request to a masked secret's host in a form that could echo the value or send it elsewhere:
 *               TRACE, TRACK, CONNECT), or {@code proxy_request_denied} (a request its host's allowlist request
 *               rules refuse: method or path; with {@code method} and {@code path}) (an unattributed source of the
 *               proxy is {@code unattributed_source} too); or {@code agent_not_allowlisted} /
 *               {@code proxy_agent_not_allowlisted} (the resolver's / the proxy's denial of a name the company
 *               allows but the agent's own allowlist does not); or {@code suspected_tunnelling} (the sandbox's
 *               names under one base domain scored over the operator's threshold: see {@code score}); or
 *               {@code canary_breach} (a canary's probe got through what the company's policy must refuse; qtype
 *               {@code CANARY})
 * @param enforced true when the lookups or connections were denied; false when the company's egress policy is in
 *                 report mode and they were let through, so the event records what enforce mode would have denied.
 *                 Absent in events written before the field existed, which were all enforced: read as true
 * @param method   for {@code proxy_request_denied}: the refused request's method; else null (absent)
 * @param path     for {@code proxy_request_denied}: the refused request's path, normalised as the rules match it (as
 *                 sent, without the query, when it has no normal form), at most 512 characters; else null (absent)
 * @param score    the sandbox's tunnelling score (0 to 1) for the base domain of {@code qname} when the event was
 *                 made: how much its names under that domain look like data being carried out; null (absent) for an
 *                 unattributed source and in events written before the field existed
 * @param signals  the tunnelling signals that are up for that base domain ({@code long_names}, {@code high_entropy},
 *                 {@code unique_names}, {@code rate}, {@code nxdomain}, {@code record_types}); null (absent) with
 *                 {@code score}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EgressAnomaly(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                            String qname, String qtype, String reason, long count, Instant firstSeen,
                            Instant lastSeen, Boolean enforced, String method, String path, Double score,
                            List<String> signals) {
    public EgressAnomaly {
        enforced = enforced == null ? Boolean.TRUE : enforced;
        signals = signals == null ? null : List.copyOf(signals);
    }

    /** An anomaly without a tunnelling score (an unattributed source, or an event of before scores). */
    public EgressAnomaly(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                         String qname, String qtype, String reason, long count, Instant firstSeen, Instant lastSeen,
                         Boolean enforced, String method, String path) {
        this(id, companyId, agentId, runId, containerId, sourceIp, qname, qtype, reason, count, firstSeen, lastSeen,
                enforced, method, path, null, null);
    }

    /** An anomaly of a lookup or a connection: no request method or path. */
    public EgressAnomaly(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                         String qname, String qtype, String reason, long count, Instant firstSeen, Instant lastSeen,
                         Boolean enforced) {
        this(id, companyId, agentId, runId, containerId, sourceIp, qname, qtype, reason, count, firstSeen, lastSeen,
                enforced, null, null, null, null);
    }

    public static final String NOT_ALLOWLISTED = "not_allowlisted";
    public static final String QTYPE_DENIED = "qtype_denied";
    public static final String UNATTRIBUTED_SOURCE = "unattributed_source";
    /** The proxy refused a connection to a host that is not on the company's allowlist. */
    public static final String PROXY_NOT_ALLOWLISTED = "proxy_not_allowlisted";
    /** The proxy refused a connection because every address the host resolves to is of a refused class (private…). */
    public static final String PROXY_ADDRESS_DENIED = "proxy_address_denied";
    /** The proxy refused a connection to an allow-listed host on a port its allowlist entry does not open. */
    public static final String PROXY_PORT_DENIED = "proxy_port_denied";
    /** The TLS SNI or HTTP Host differed from the host the connection was allowed for (domain fronting), or no TLS. */
    public static final String PROXY_HOST_MISMATCH = "proxy_host_mismatch";
    /**
     * A request the proxy refused because its syntax or body framing is ambiguous (bare LF, obsolete line folding,
     * Transfer-Encoding with Content-Length, …): a peer further on could read another request out of it.
     */
    public static final String PROXY_MALFORMED_REQUEST = "proxy_malformed_request";
    /** A TLS ClientHello offered Encrypted Client Hello: its outer server name says nothing of where it goes. */
    public static final String PROXY_ENCRYPTED_CLIENT_HELLO = "proxy_encrypted_client_hello";
    /** A request carried a masked secret's surrogate to a host outside that secret's scope; it was refused. */
    public static final String MASKED_SECRET_OUT_OF_SCOPE = "masked_secret_out_of_scope";
    /** A request to a masked secret's host that could echo the value back or carry it on (TRACE, TRACK, CONNECT). */
    public static final String MASKED_REQUEST_REFUSED = "masked_request_refused";
    /** A request its host's allowlist request rules refuse (method or path); {@code method} and {@code path} say which. */
    public static final String PROXY_REQUEST_DENIED = "proxy_request_denied";
    /**
     * The resolver denied a name the company allow-listed because the sandbox's agent has an allowlist of its own
     * that does not list it (an agent's list narrows its company's).
     */
    public static final String AGENT_NOT_ALLOWLISTED = "agent_not_allowlisted";
    /** The proxy refused a host the company allow-listed because the agent's own allowlist does not list it. */
    public static final String PROXY_AGENT_NOT_ALLOWLISTED = "proxy_agent_not_allowlisted";
    /**
     * A sandbox's names under one base domain look like data being carried out (its tunnelling score crossed the
     * operator's threshold; qname {@code *.<base domain>} when raised, enforced when the operator blocks): raised
     * once per sandbox and base domain, and then, where the operator blocks, for every lookup and connection of the
     * sandbox under that base domain that was refused for it.
     */
    public static final String SUSPECTED_TUNNELLING = "suspected_tunnelling";
    /**
     * A canary of the company got through something its policy must refuse (qname: the check's target; qtype
     * {@code CANARY}; run_id: the canary; agent_id: {@link CanaryRequested#PROBE_AGENT_ID}): one event per breached
     * check of the canary.
     */
    public static final String CANARY_BREACH = "canary_breach";
    /** Every reason, the resolver's first, in the order filters offer them. */
    public static final List<String> REASONS = List.of(NOT_ALLOWLISTED, QTYPE_DENIED, UNATTRIBUTED_SOURCE,
            PROXY_NOT_ALLOWLISTED, PROXY_ADDRESS_DENIED, PROXY_PORT_DENIED, PROXY_HOST_MISMATCH,
            PROXY_MALFORMED_REQUEST, PROXY_ENCRYPTED_CLIENT_HELLO, MASKED_SECRET_OUT_OF_SCOPE,
            MASKED_REQUEST_REFUSED, PROXY_REQUEST_DENIED, AGENT_NOT_ALLOWLISTED, PROXY_AGENT_NOT_ALLOWLISTED,
            SUSPECTED_TUNNELLING, CANARY_BREACH);
}
