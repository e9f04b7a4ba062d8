package io.trimus.adapter.egress;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.testing.Containers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * deploy/egress-firewall/egress-firewall.sh attacked from a real container on an internal egress network with
 * inter-container traffic off: with egress-service on the gateway ({@code ./trimus up}) a sandbox reaches the host's
 * DNS port 53 and the proxy's ports 80, 443 and 3128 and nothing else on the host; with egress-service in a container
 * (docker-compose.yml) it reaches those ports of that container and nothing else of it, nor the host. Each case
 * first shows the opening the rules close (or the block they lift), and that stopping the script takes its rules
 * away again.
 */
class EgressFirewallTest {

    private static final String NETWORK = "trimus-test-egress-fw";
    private static final String BRIDGE = "trimus-egfw0";
    private static final String SUBNET = "10.199.90.0/24";
    private static final String GATEWAY = "10.199.90.1";
    private static final String RESOLVER_CONTAINER_IP = "10.199.90.2";
    private static final String LABEL = "trimus.test.egress-firewall";
    private static final Path SCRIPT = Path.of("..", "deploy", "egress-firewall", "egress-firewall.sh");
    /** egress-service's TCP ports a sandbox may reach: DNS, transparent HTTP and HTTPS, the explicit proxy. */
    private static final int[] OPEN_TCP = {53, 80, 443, 3128};

    private final DockerClient docker = Engine.docker();
    private final List<ServerSocket> hostListeners = new ArrayList<>();
    private Process firewall;

    @BeforeEach
    void createNetwork() {
        EgressTestResource.removeNetwork(docker, NETWORK);
        docker.createNetworkCmd().withName(NETWORK).withDriver("bridge").withCheckDuplicate(true).withInternal(true)
                .withOptions(Map.of("com.docker.network.bridge.enable_icc", "false",
                        "com.docker.network.bridge.name", BRIDGE))
                .withIpam(new Network.Ipam().withConfig(new Network.Ipam.Config().withSubnet(SUBNET)
                        .withGateway(GATEWAY)))
                .withLabels(Map.of(EgressTestResource.TEST_LABEL, "true"))
                .exec();
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (firewall != null && firewall.isAlive()) {
            firewall.destroy();
            firewall.waitFor(10, TimeUnit.SECONDS);
        }
        for (ServerSocket listener : hostListeners) {
            listener.close();
        }
        Containers.removeByLabel(docker, LABEL, "true");
        EgressTestResource.removeNetwork(docker, NETWORK);
    }

    @Test
    void onTheGatewayASandboxReachesTheResolverAndProxyPortsOfTheHostAndNothingElse() throws Exception {
        for (int port : OPEN_TCP) {
            hostListener(port);
        }
        int other = hostListener(0);
        int http = hostListener(8083);
        assertThat(probe(GATEWAY, other, http)).as("without the rules the host is open")
                .contains("open-" + other, "open-8083");

        startFirewall(GATEWAY);

        assertThat(probe(GATEWAY, with(OPEN_TCP, other, http)))
                .contains(opened(OPEN_TCP)).contains("closed-" + other, "closed-8083");

        stopFirewall();
        assertThat(probe(GATEWAY, other)).contains("open-" + other);
    }

    @Test
    void inAContainerASandboxReachesItsResolverAndProxyPortsAndNeitherItsOtherPortsNorTheHost() throws Exception {
        int host = hostListener(0);
        resolverContainer();
        assertThat(probe(RESOLVER_CONTAINER_IP, OPEN_TCP)).as("inter-container traffic is off")
                .contains("closed-53", "closed-80", "closed-443", "closed-3128");

        startFirewall(RESOLVER_CONTAINER_IP);

        // the container's ports and the host's side by side: each probe waits out its dropped ports
        CompletableFuture<String> ofTheHost = CompletableFuture.supplyAsync(() -> probe(GATEWAY, host));
        assertThat(probe(RESOLVER_CONTAINER_IP, with(OPEN_TCP, 8083, 8080)))
                .contains(opened(OPEN_TCP)).contains("closed-8083", "closed-8080");
        assertThat(ofTheHost.get(60, TimeUnit.SECONDS)).contains("closed-" + host);

        stopFirewall();
        assertThat(probe(RESOLVER_CONTAINER_IP, 53, 3128)).contains("closed-53", "closed-3128");
    }

    @Test
    void aProxyPortSetToMinusOneIsNotOpenedAndTheOthersFollowTheirVariables() throws Exception {
        Map<String, String> env = new HashMap<>(environment(GATEWAY));
        env.put("TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTP_PORT", "-1");
        env.put("TRIMUS_EGRESS_PROXY_TRANSPARENT_HTTPS_PORT", "8443");
        env.put("TRIMUS_EGRESS_PROXY_PORT", "13128");

        assertThat(script(env, "ports")).containsExactly("udp 53", "tcp 53", "tcp 8443", "tcp 13128");
        assertThat(script(environment(GATEWAY), "ports")).containsExactly("udp 53", "tcp 53", "tcp 80", "tcp 443",
                "tcp 3128");
    }

    private static List<String> script(Map<String, String> env, String command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sh", SCRIPT.toString(), command);
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).isZero();
        return out.lines().toList();
    }

    private static int[] with(int[] ports, int... more) {
        return IntStream.concat(Arrays.stream(ports), Arrays.stream(more))
                .toArray();
    }

    private static String[] opened(int[] ports) {
        return Arrays.stream(ports).mapToObj(p -> "open-" + p).toArray(String[]::new);
    }

    /** A TCP listener on the host's address on the egress network that accepts and closes every connection. */
    private int hostListener(int port) throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getByName(GATEWAY), port));
        hostListeners.add(listener);
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket ignored = listener.accept()) {
                    // connected is all a probe needs to see
                } catch (IOException closed) {
                    return;
                }
            }
        }, "egress-firewall-test-listener");
        acceptor.setDaemon(true);
        acceptor.start();
        return listener.getLocalPort();
    }

    /** egress-service's container of docker-compose.yml, reduced to TCP listeners on its ports and 8083 (HTTP). */
    private void resolverContainer() {
        String id = docker.createContainerCmd(Engine.busybox())
                .withUser("0")
                .withLabels(Map.of(LABEL, "true"))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode(NETWORK))
                .withIpv4Address(RESOLVER_CONTAINER_IP)
                .withCmd("sh", "-c", "for p in 53 80 443 3128 8080 8083; do nc -ll -p $p -e /bin/true & done; wait")
                .exec().getId();
        docker.startContainerCmd(id).exec();
    }

    /**
     * What a sandbox on the network sees: "open-P" or "closed-P" per port of {@code address} (in no particular
     * order). The ports are tried side by side: a dropped one takes the whole connect timeout, and one after the
     * other they made this class wait out every closed port in turn. The timeout (2 s) is many times what a connect
     * across the local bridge takes, even on a loaded host: an open port is never mistaken for a dropped one.
     */
    private String probe(String address, int... ports) {
        StringBuilder script = new StringBuilder();
        for (int port : ports) {
            script.append("(nc -w 2 ").append(address).append(' ').append(port).append(" </dev/null && echo open-")
                    .append(port).append(" || echo closed-").append(port).append(") & ");
        }
        script.append("wait");
        String id = docker.createContainerCmd(Engine.busybox())
                .withLabels(Map.of(LABEL, "true"))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode(NETWORK))
                .withCmd("sh", "-c", script.toString())
                .exec().getId();
        docker.startContainerCmd(id).exec();
        docker.waitContainerCmd(id).start().awaitStatusCode(30, TimeUnit.SECONDS);
        return Engine.logsOf(id);
    }

    private void startFirewall(String resolver) throws IOException {
        Path log = Files.createTempFile("egress-firewall", ".log");
        ProcessBuilder builder = new ProcessBuilder("sh", SCRIPT.toString(), "run")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment(resolver));
        firewall = builder.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> rulesInPlace(resolver));
    }

    private void stopFirewall() throws Exception {
        firewall.destroy();
        assertThat(firewall.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ruleLines()).as("the script takes its rules away when stopped").isEmpty();
    }

    private boolean rulesInPlace(String resolver) throws Exception {
        ProcessBuilder check = new ProcessBuilder("sh", SCRIPT.toString(), "check").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        check.environment().putAll(environment(resolver));
        return check.start().waitFor() == 0;
    }

    private static Map<String, String> environment(String resolver) {
        return Map.of("TRIMUS_EGRESS_NETWORK_BRIDGE_NAME", BRIDGE, "TRIMUS_EGRESS_NETWORK_SUBNET", SUBNET,
                "TRIMUS_EGRESS_NETWORK_GATEWAY", GATEWAY, "TRIMUS_EGRESS_RESOLVER_IP", resolver);
    }

    /** The script's rules (tagged with the bridge) in the host's iptables. */
    private static List<String> ruleLines() throws Exception {
        Process list = new ProcessBuilder("iptables", "-w", "-S").redirectErrorStream(true).start();
        String all = new String(list.getInputStream().readAllBytes());
        list.waitFor();
        return all.lines().filter(line -> line.contains("trimus-egress:" + BRIDGE)).toList();
    }
}
