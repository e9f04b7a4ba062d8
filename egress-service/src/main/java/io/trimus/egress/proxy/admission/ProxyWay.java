package io.trimus.egress.proxy.admission;

/**
 * How a sandbox's connection reached the proxy, which says how the proxy learns where it goes: from the request
 * (explicit, HTTPS_PROXY / HTTP_PROXY on 3128), or, for a client the resolver steered to the proxy's address, from
 * the TLS ClientHello's server name (443) or each request's Host header (80).
 */
public enum ProxyWay {
    /** The explicit proxy: {@code CONNECT host:443} or absolute-form {@code http://} requests. */
    EXPLICIT("explicit"),
    /** A steered TLS connection: the ClientHello's SNI names the host; never terminated. */
    TRANSPARENT_TLS("transparent"),
    /** A steered plain-HTTP connection: every request's Host header names the host. */
    TRANSPARENT_HTTP("transparent");

    private final String label;

    ProxyWay(String label) {
        this.label = label;
    }

    /** How records and logs name it: {@code explicit} or {@code transparent}. */
    public String label() {
        return label;
    }
}
