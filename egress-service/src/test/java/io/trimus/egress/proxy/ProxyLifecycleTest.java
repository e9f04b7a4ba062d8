package io.trimus.egress.proxy;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.connection.ConnectionRecorder;
import io.trimus.egress.dns.DnsServerLifecycle;
import io.trimus.egress.dns.Upstream;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.proxy.destination.DestinationAddressPolicy;
import io.trimus.egress.proxy.intercept.LeafKeys;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The proxy starts with the service next to the resolver (the test profile serves both when the egress network's
 * resource is active), and a port it cannot bind stops the start.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class ProxyLifecycleTest {
    private static final Upstream NO_UPSTREAM = (name, type) -> Future.failedFuture("not asked in this test");

    @Inject
    ProxyLifecycle started;

    @Inject
    TrimusConfig config;

    @Inject
    Vertx vertx;

    @Inject
    MaskedSecrets masked;

    @Inject
    LeafKeys leafKeys;

    @Inject
    DnsServerLifecycle resolver;

    @Inject
    SandboxRegistry sandboxes;

    @Inject
    AllowlistCache allowlists;

    @Inject
    AnomalyRecorder anomalies;

    @Inject
    DestinationAddressPolicy addresses;

    @Inject
    EgressModes modes;

    @Inject
    ConnectionRecorder connections;

    @Test
    void theProxyIsServedExactlyWhenTheResolverIsAndRefusesAStranger() throws Exception {
        assertThat(started.port().isPresent()).isEqualTo(resolver.listenHost().isPresent());
        if (started.port().isEmpty()) {
            return;
        }
        try (Socket client = new Socket()) {
            client.connect(new InetSocketAddress(resolver.listenHost().get(), started.port().get()), 5000);
            client.setSoTimeout(10_000);
            client.getOutputStream().write("CONNECT api.example.test:443 HTTP/1.1\r\n\r\n".getBytes());
            byte[] status = client.getInputStream().readNBytes(12);

            assertThat(new String(status)).isEqualTo("HTTP/1.1 403");
        }
    }

    @Test
    void aProxyPortThatIsTakenFailsTheStartNamingTheSetting() throws Exception {
        ProxyLifecycle proxy = newLifecycle();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> proxy.start("127.0.0.1", taken.getLocalPort(), NO_UPSTREAM))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("TRIMUS_EGRESS_PROXY_PORT");
        }
        assertThat(proxy.port()).isEmpty();
    }

    @Test
    void aStartedProxyAcceptsConnectionsUntilItStops() throws Exception {
        ProxyLifecycle proxy = newLifecycle();
        proxy.start("127.0.0.1", 0, NO_UPSTREAM);
        int port = proxy.port().orElseThrow();
        try (Socket client = new Socket()) {
            client.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            assertThat(client.isConnected()).isTrue();
        } finally {
            proxy.stop();
        }
        assertThat(proxy.port()).isEmpty();
    }

    private ProxyLifecycle newLifecycle() {
        return new ProxyLifecycle(config, vertx, resolver, sandboxes, allowlists, anomalies, addresses, modes,
                () -> true, connections, masked, leafKeys);
    }
}
