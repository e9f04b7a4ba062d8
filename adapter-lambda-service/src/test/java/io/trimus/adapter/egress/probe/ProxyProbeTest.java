package io.trimus.adapter.egress.probe;

import io.trimus.adapter.support.ProxyStandIn;
import io.trimus.adapter.support.Wiring;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The proxy check against real TCP servers on loopback: the contract's answer passes; another server's answer, silence,
 * a refused connection or an endless answer each fail with a sentence naming the address, within the probe's bounds.
 */
class ProxyProbeTest {

    @Test
    void aProxyThatAnswersPerTheContractPasses() {
        try (ProxyStandIn proxy = ProxyStandIn.start()) {
            assertThat(probe(proxy.address()).problem("10.0.0.1")).isNull();
            assertThat(proxy.checks()).isEqualTo(1);
        }
    }

    @Test
    void aGoodAnswerIsTrustedForAFewSecondsSoABurstOfRunsCostsOneCheck() {
        try (ProxyStandIn proxy = ProxyStandIn.start()) {
            ProxyProbe probe = probe(proxy.address());
            assertThat(probe.problem("10.0.0.1")).isNull();
            proxy.mode(ProxyStandIn.Mode.FOREIGN);
            assertThat(probe.problem("10.0.0.1")).isNull();
            assertThat(proxy.checks()).isEqualTo(1);
        }
    }

    @Test
    void anotherHttpServerIsNotTakenForTheProxy() {
        try (ProxyStandIn proxy = ProxyStandIn.start()) {
            proxy.mode(ProxyStandIn.Mode.FOREIGN);
            assertThat(probe(proxy.address()).problem("10.0.0.1")).isEqualTo("the server at " + proxy.address()
                    + " is not the Trimus egress proxy (it answered HTTP 200 without X-Trimus-Proxy: ok to the proxy"
                    + " check)");
        }
    }

    @Test
    void a204WithoutTheMarkerIsNotTheProxy() throws Exception {
        try (ServerSocket server = answering("HTTP/1.1 204 No Content\r\nX-Other: ok\r\n\r\n")) {
            String address = "127.0.0.1:" + server.getLocalPort();
            assertThat(probe(address).problem("10.0.0.1")).isEqualTo("the server at " + address
                    + " is not the Trimus egress proxy (it answered HTTP 204 without X-Trimus-Proxy: ok to the proxy"
                    + " check)");
        }
    }

    @Test
    void aRefusedConnectionSaysTheProxyDoesNotAnswer() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String address = "127.0.0.1:" + port;
        assertThat(probe(address).problem("10.0.0.1"))
                .startsWith("the Trimus egress proxy at " + address + " does not answer (")
                .containsIgnoringCase("refused");
    }

    @Test
    void aSilentServerFailsTheCheckWithinTwoSeconds() {
        try (ProxyStandIn proxy = ProxyStandIn.start()) {
            proxy.mode(ProxyStandIn.Mode.SILENT);
            long started = System.nanoTime();
            String problem = probe(proxy.address()).problem("10.0.0.1");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(problem).isEqualTo("the Trimus egress proxy at " + proxy.address()
                    + " does not answer (no complete answer within 2 s)");
            assertThat(took).isBetween(Duration.ofMillis(1900), Duration.ofSeconds(4));
        }
    }

    @Test
    void anEndlessAnswerIsReadNoFurtherThanTheBound() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread flood = new Thread(() -> {
                try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
                    byte[] junk = "HTTP/1.1 200 OK\r\nX-Junk: ".repeat(100).getBytes(StandardCharsets.US_ASCII);
                    while (true) {
                        out.write(junk);
                    }
                } catch (Exception stopped) {
                    // the probe closed the connection
                }
            });
            flood.setDaemon(true);
            flood.start();
            String address = "127.0.0.1:" + server.getLocalPort();

            assertThat(probe(address).problem("10.0.0.1")).startsWith("the server at " + address
                    + " is not the Trimus egress proxy (it answered HTTP 200 without X-Trimus-Proxy: ok");
        }
    }

    @Test
    void withoutAnOverrideTheProbeAsksTheSandboxsProxyAddressOnTheProxyPort() {
        try (ProxyStandIn proxy = ProxyStandIn.start()) {
            int port = Integer.parseInt(proxy.address().substring("127.0.0.1:".length()));
            assertThat(Wiring.proxyProbe(port, Optional.empty()).problem("127.0.0.1")).isNull();
            assertThat(Wiring.proxyProbe(port, Optional.empty()).port()).isEqualTo(port);
        }
    }

    @Test
    void aWrongCheckAddressOrPortIsRefusedNamingTheVariable() {
        assertThatThrownBy(() -> Wiring.proxyProbe(3128, Optional.of("172.30.0.1")))
                .hasMessage("TRIMUS_EGRESS_PROXY_CHECK_ADDR must be host:port, e.g. 172.30.0.1:3128, got '172.30.0.1'");
        assertThatThrownBy(() -> Wiring.proxyProbe(0, Optional.empty()))
                .hasMessage("TRIMUS_EGRESS_PROXY_PORT must be a port number, got 0");
    }

    private static ProxyProbe probe(String address) {
        return Wiring.proxyProbe(3128, Optional.of(address));
    }

    /** A server that answers every connection with {@code head} once the request arrived. */
    private static ServerSocket answering(String head) throws Exception {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread answer = new Thread(() -> {
            try (Socket s = server.accept()) {
                s.getInputStream().read(new byte[1024]);
                s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            } catch (Exception stopped) {
                // the test is over
            }
        });
        answer.setDaemon(true);
        answer.start();
        return server;
    }
}
