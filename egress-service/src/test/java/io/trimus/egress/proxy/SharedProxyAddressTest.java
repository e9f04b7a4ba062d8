package io.trimus.egress.proxy;

import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.RecordingAnomalies;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.proxy.admission.ProxyLimits;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.destination.OutsideAddresses;
import io.trimus.egress.proxy.destination.TestDestinations;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.ProxyCheck;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.trimus.egress.proxy.OutsideServers.await;
import static io.trimus.egress.proxy.ProxySockets.send;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two egress-service replicas on one host share the proxy's address: each proxy socket asks for SO_REUSEPORT, so a
 * second server in another Vert.x instance (its own sockets, as another process has) binds the same address and port,
 * the kernel spreads new connections over both, and the address keeps answering when the first goes away.
 */
class SharedProxyAddressTest {
    private final List<Vertx> instances = new ArrayList<>();
    private final List<UpstreamResolver> upstreams = new ArrayList<>();

    @AfterEach
    void close() {
        upstreams.forEach(upstream -> await(upstream.close()));
        instances.forEach(vertx -> await(vertx.close()));
    }

    @Test
    void aSecondReplicaBindsTheProxysAddressAndServesItWhenTheFirstIsGone() throws Exception {
        ProxyServer first = proxy();
        await(first.start("127.0.0.1", 0));
        int port = first.port();
        ProxyServer second = proxy();

        await(second.start("127.0.0.1", port));

        for (int i = 0; i < 8; i++) {
            assertThat(probe(port)).startsWith("HTTP/1.1 204 ");
        }
        await(first.close());
        assertThat(probe(port)).startsWith("HTTP/1.1 204 ").contains(ProxyCheck.HEADER + ": ok");
        await(second.close());
    }

    private ProxyServer proxy() {
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        instances.add(vertx);
        assertThat(vertx.isNativeTransportEnabled()).as("epoll, as egress-service runs").isTrue();
        UpstreamResolver upstream = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", 9),
                Duration.ofSeconds(1), 8);
        upstreams.add(upstream);
        return PlainProxies.server(vertx, new ProxyPolicy(new SandboxRegistry(), new AllowlistCache(),
                company -> EgressMode.ENFORCE, () -> true, Set.of(443, 80), Set.of(443)),
                TestDestinations.uncached(upstream, new OutsideAddresses()), new RecordingAnomalies(), record -> { },
                new ProxyLimits(8192, 4, Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofSeconds(5),
                        Duration.ofSeconds(10)), 2);
    }

    private static String probe(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            return send(socket, "GET " + ProxyCheck.PATH + " HTTP/1.1\r\nHost: x\r\n\r\n");
        }
    }
}
