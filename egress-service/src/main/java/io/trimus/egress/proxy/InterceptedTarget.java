package io.trimus.egress.proxy;

import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.sandbox.Sandbox;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the {@link MaskingInterceptor} needs to know about one sandbox connection it terminates: whose it is, the host
 * and port it was admitted for, the address that passed the checks (the only one dialled), the sandbox's masks, and
 * the swaps counted so far (read by the proxy connection when it ends).
 */
record InterceptedTarget(Sandbox sandbox, String sourceIp, String host, int port, InetAddress address, RunMasks masks,
                         Map<String, Integer> swaps) {
    InterceptedTarget(Sandbox sandbox, String sourceIp, String host, int port, InetAddress address, RunMasks masks) {
        this(sandbox, sourceIp, host, port, address, masks, new ConcurrentHashMap<>());
    }

    void count(Map<String, Integer> more) {
        more.forEach((name, n) -> swaps.merge(name, n, Integer::sum));
    }
}
