package io.trimus.events;

/**
 * The request the adapter service sends the Trimus egress proxy before a sandbox starts, to know it answers: an
 * origin-form {@code GET} of {@link #PATH} on the explicit proxy port (TRIMUS_EGRESS_PROXY_PORT, 3128). The proxy
 * answers it from any source with {@code 204} and the header {@link #HEADER}, dials nothing and records no anomaly;
 * any other server answers otherwise, so the answer also tells that the address really is Trimus's proxy.
 */
public final class ProxyCheck {
    /** The probe path. */
    public static final String PATH = "/.well-known/trimus-proxy-check";
    /** The response header that marks Trimus's proxy; its value is {@code ok}. */
    public static final String HEADER = "X-Trimus-Proxy";

    private ProxyCheck() {
    }
}
