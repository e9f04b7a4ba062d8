package io.trimus.egress.proxy.intercept;

import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.sandbox.Sandbox;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the {@link MaskingInterceptor} needs to know about one sandbox connection it terminates: whose it is, the host
 * and port it was admitted for (the ClientHello named that host), the address that passed the checks (the only one
 * dialled), the sandbox's masks, the policy each request is admitted by again, and the swaps counted so far (read by
 * the proxy connection when it ends).
 */
public record InterceptedTarget(Sandbox sandbox, String sourceIp, String host, int port, InetAddress address,
                                RunMasks masks, ProxyPolicy policy, Map<String, Integer> swaps) {
    InterceptedTarget(Sandbox sandbox, String sourceIp, String host, int port, InetAddress address, RunMasks masks,
                      ProxyPolicy policy) {
        this(sandbox, sourceIp, host, port, address, masks, policy, new ConcurrentHashMap<>());
    }

    /** All but the address, known once the host is admitted; the address comes with the dial. */
    public record Partial(Sandbox sandbox, String sourceIp, String host, int port, RunMasks masks, ProxyPolicy policy) {
        public InterceptedTarget at(InetAddress address) {
            return new InterceptedTarget(sandbox, sourceIp, host, port, address, masks, policy);
        }
    }

    void count(Map<String, Integer> more) {
        more.forEach((name, n) -> swaps.merge(name, n, Integer::sum));
    }

    /** The authority a request to this target names: the host, with the port unless it is 443. */
    String authority() {
        return port == 443 ? host : host + ":" + port;
    }
}
