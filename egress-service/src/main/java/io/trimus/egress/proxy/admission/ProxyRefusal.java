package io.trimus.egress.proxy.admission;

/**
 * Why the egress proxy refuses a connection: the status the client gets, the reason the decision log names and,
 * for the security decisions, the anomaly reason recorded (the {@code EgressAnomaly} reasons of the event contract).
 */
public enum ProxyRefusal {
    /**
     * The host is under a base domain the sandbox's names scored at the tunnelling threshold for, and the operator
     * blocks (TRIMUS_EGRESS_TUNNELLING_ACTION=block): nothing under it is resolved or dialled for the sandbox again.
     */
    SUSPECTED_TUNNELLING("suspected_tunnelling", 403, "Forbidden", true),
    /** The source address belongs to no registered sandbox. */
    UNATTRIBUTED_SOURCE("unattributed_source", 403, "Forbidden", true),
    /** The host is not on the company's allowlist (an IP literal never is). */
    NOT_ALLOWLISTED("proxy_not_allowlisted", 403, "Forbidden", true),
    /**
     * The company allow-listed the host, but the sandbox's agent has an allowlist of its own that does not list it
     * (an agent's list narrows its company's).
     */
    AGENT_NOT_ALLOWLISTED("proxy_agent_not_allowlisted", 403, "Forbidden", true),
    /** The destination port is not one of TRIMUS_EGRESS_PROXY_PORTS. */
    PORT_DENIED("proxy_port_denied", 403, "Forbidden", true),
    /** Every address the host resolves to is of a class the proxy does not dial (loopback, private, …). */
    ADDRESS_DENIED("proxy_address_denied", 403, "Forbidden", true),
    /** The TLS SNI or a later request's Host names another host than the one allowed, or 443 carried no TLS. */
    HOST_MISMATCH("proxy_host_mismatch", 403, "Forbidden", true),
    /**
     * A request whose syntax or body framing could be read in two ways (bare LF, folded header, Transfer-Encoding with
     * Content-Length, …): the way request smuggling hides a second request from the proxy.
     */
    MALFORMED("proxy_malformed_request", 400, "Bad Request", true),
    /** A ClientHello offering Encrypted Client Hello: its outer server name says nothing of where it goes. */
    ENCRYPTED_CLIENT_HELLO("proxy_encrypted_client_hello", 403, "Forbidden", true),
    /** A well-formed request this way of the proxy does not serve (origin-form on 3128, https:// in plain HTTP, …). */
    BAD_REQUEST("bad_request", 400, "Bad Request", false),
    /** The request head is longer than TRIMUS_EGRESS_PROXY_MAX_HEAD_BYTES. */
    HEAD_TOO_LARGE("head_too_large", 431, "Request Header Fields Too Large", false),
    /** The sandbox holds TRIMUS_EGRESS_PROXY_MAX_CONNECTIONS_PER_SANDBOX connections already. */
    TOO_MANY_CONNECTIONS("too_many_connections", 429, "Too Many Requests", false),
    /** The upstream resolver gave no address for the host. */
    UNRESOLVED("unresolved", 502, "Bad Gateway", false),
    /** No permitted address of the host accepted a connection in time. */
    CONNECT_FAILED("connect_failed", 502, "Bad Gateway", false),
    /** A request carried a masked secret's surrogate to a host outside that secret's scope. */
    MASKED_OUT_OF_SCOPE("masked_secret_out_of_scope", 403, "Forbidden", true),
    /**
     * A request to a host of a masked secret that could echo the real value back or carry it on: TRACE, TRACK,
     * CONNECT.
     */
    MASKED_REQUEST_REFUSED("masked_request_refused", 405, "Method Not Allowed", true),
    /** A plain-HTTP request, or a tunnel the proxy cannot read, to a host of a masked secret: swaps need TLS. */
    MASKED_NEEDS_TLS("masked_host_needs_tls", 403, "Forbidden", false),
    /** This replica cannot confirm its copy of the egress policy current: it decides nothing by it. */
    POLICY_STALE("policy_stale", 503, "Service Unavailable", false),
    /** The sandbox holds masked secrets this egress-service has not received yet (it restarted). */
    MASKS_PENDING("masks_pending", 503, "Service Unavailable", false),
    /** The proxy cannot terminate TLS for a host of a masked secret: the sandbox's egress CA is unavailable. */
    MASKING_UNAVAILABLE("masking_unavailable", 502, "Bad Gateway", false),
    /**
     * A request its host's request rules refuse (method or path); its anomaly, which carries the method and path, is
     * recorded where it is checked, and its answer is a {@link RequestDenial}'s JSON.
     */
    REQUEST_DENIED(RequestDenial.ANOMALY_REASON, 403, "Forbidden", false),
    /**
     * An open tunnel the proxy carried unchecked to a host that has request rules now: closed, so the next connection
     * is intercepted and its requests checked (not an anomaly: nothing was refused yet).
     */
    RULES_CHANGED("rules_changed", 403, "Forbidden", false);

    private final String reason;
    private final int status;
    private final String statusText;
    private final boolean anomaly;

    ProxyRefusal(String reason, int status, String statusText, boolean anomaly) {
        this.reason = reason;
        this.status = status;
        this.statusText = statusText;
        this.anomaly = anomaly;
    }

    /** The reason as the decision log and, for anomalies, the event's {@code reason} spell it. */
    public String reason() {
        return reason;
    }

    /** The HTTP status the client gets when the refusal comes before the tunnel is open. */
    public int status() {
        return status;
    }

    /** Whether this refusal is a security decision recorded as an anomaly, or only a failure to serve. */
    public boolean anomaly() {
        return anomaly;
    }

    /** The response the client gets: status line, a one-line plain-text body for people, then the close. */
    public String response() {
        String body = switch (this) {
            case SUSPECTED_TUNNELLING -> "this sandbox's names under this domain look like data being carried out:"
                    + " the domain is blocked for the rest of the run";
            case UNATTRIBUTED_SOURCE -> "this address belongs to no Trimus sandbox";
            case NOT_ALLOWLISTED -> "the host is not on your company's egress allowlist";
            case AGENT_NOT_ALLOWLISTED -> "the host is not on this agent's own egress allowlist";
            case PORT_DENIED -> "the proxy does not connect to this port";
            case ADDRESS_DENIED -> "the host resolves only to addresses the proxy does not connect to";
            case HOST_MISMATCH -> "a connection may carry requests for the host it was opened for only";
            case MALFORMED -> "the request is malformed: lines end with CR LF, one Host, one Content-Length or"
                    + " Transfer-Encoding: chunked (HTTP/1.1 only), no folded or control characters";
            case ENCRYPTED_CLIENT_HELLO -> "Encrypted Client Hello hides where the connection goes: turn ECH off";
            case BAD_REQUEST -> "the proxy accepts CONNECT host:port and absolute-form http:// requests";
            case HEAD_TOO_LARGE -> "the request head is too large";
            case TOO_MANY_CONNECTIONS -> "this sandbox has too many proxy connections open";
            case UNRESOLVED -> "the host does not resolve";
            case CONNECT_FAILED -> "the host did not accept the connection";
            case MASKED_OUT_OF_SCOPE -> "the request carries a masked secret, which may not be sent to this host";
            case MASKED_REQUEST_REFUSED -> "TRACE, TRACK and CONNECT are not sent to a host of a masked secret";
            case MASKED_NEEDS_TLS -> "masked secrets are swapped only in HTTPS requests to this host";
            case POLICY_STALE -> "the proxy cannot confirm your company's egress policy now; retry in a few seconds";
            case MASKS_PENDING -> "this sandbox's masked secrets are not known to the proxy yet; retry in a few seconds";
            case MASKING_UNAVAILABLE -> "the proxy cannot terminate TLS for this host now";
            case REQUEST_DENIED -> "the host's allowlist entries do not allow this method or path";
            case RULES_CHANGED -> "the host's allowlist entries changed: connect again";
        } + "\n";
        return "HTTP/1.1 " + status + " " + statusText + "\r\nContent-Type: text/plain\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body;
    }
}
