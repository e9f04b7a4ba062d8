package io.trimus.egress.proxy.admission;

import io.trimus.egress.masks.MaskSwap;
import io.trimus.egress.masks.RunMasks;
import io.trimus.events.ProxyCheck;

import java.util.List;
import java.util.Map;

/**
 * The rules a parsed request head is held to, pure and shared by the plain-HTTP proxy and the masking interceptor:
 * where a request goes on each way in, whether its Host agrees, whether it is the adapter service's probe, whether it
 * carries a surrogate where it may not.
 */
public final class ProxyRequests {
    private ProxyRequests() {
    }

    /**
     * Where a request goes: for the explicit proxy, the target it names (CONNECT or absolute-form {@code http://});
     * on a transparent port, its target (origin-form: its Host), which must name that port (or none when it is 80).
     * Null for a request the way does not serve, {@code https://} targets included: the proxy does not originate
     * TLS, a client asks for a tunnel with CONNECT.
     */
    public static ProxyTarget targetOf(ProxyWay way, int destinationPort, ProxyRequestHead head) {
        if ("https".equals(head.scheme())) {
            return null;
        }
        if (way == ProxyWay.EXPLICIT) {
            return head.absoluteForm() ? head.target() : null;
        }
        if (head.isConnect() || head.target() == null || head.target().port() != destinationPort) {
            return null;
        }
        return head.target();
    }

    /** Whether the request is the adapter service's proxy check (origin-form, on the explicit port). */
    public static boolean isCheck(ProxyRequestHead head) {
        return !head.absoluteForm() && head.method().equals("GET") && head.originForm().equals(ProxyCheck.PATH);
    }

    /**
     * Whether the Host header, if any (one at most), names {@code host} (the admitted host, normalised) and
     * {@code port}; a Host without a port names {@code defaultPort}.
     */
    public static boolean hostHeaderNames(ProxyRequestHead head, String host, int port, int defaultPort) {
        if (head.count("Host") > 1) {
            return false;
        }
        String value = head.header("Host");
        if (value == null) {
            return true;
        }
        try {
            ProxyTarget named = ProxyTarget.parseAuthority(value, defaultPort);
            return named.port() == port && ProxyPolicy.sameHost(host, named.host());
        } catch (MalformedRequest e) {
            return false;
        }
    }

    /** Whether a request to {@code host} carries a surrogate of a secret whose scope does not cover it. */
    public static boolean carriesSurrogate(String host, ProxyRequestHead head, RunMasks masks) {
        List<Map.Entry<String, String>> headers = head.headers().stream()
                .map(h -> Map.entry(h.name(), h.value())).toList();
        return !MaskSwap.apply(host, head.originForm() == null ? "" : head.originForm(), headers, masks).allowed();
    }
}
