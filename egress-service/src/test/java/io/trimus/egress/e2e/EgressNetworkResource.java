package io.trimus.egress.e2e;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.trimus.testing.DockerClients;
import io.trimus.egress.proxy.TestPki;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.testing.TestImages;
import io.trimus.testing.TestOperator;

import java.util.List;
import java.util.Map;

/**
 * The egress network as the adapter service creates it, made before egress-service boots so the resolver and the
 * proxy can bind its gateway address (DNS on 53, the explicit proxy on 3128, the transparent proxy on 443 and 80);
 * plus the loopback port of the test's stand-in upstream DNS server, bound here and held for the whole run
 * ({@link TestUpstreamDns#reserve()}: never released between being chosen and being served), and the proxy allowed to dial the test's
 * "outside" network {@value #OUTSIDE_SUBNET}.
 */
public class EgressNetworkResource implements QuarkusTestResourceLifecycleManager {
    static final String NETWORK = "trimus-egress-allowlist";
    static final String SUBNET = "172.30.0.0/24";
    static final String GATEWAY = "172.30.0.1";
    /** The private network the end-to-end tests put their "outside" hosts on: the proxy may dial it. */
    static final String OUTSIDE_SUBNET = "10.123.0.0/24";
    static final int PROXY_PORT = 3128;
    static final String OUTSIDE_NETWORK = "trimus-test-outside";
    /** The host's own address on the outside network, where tests serve "outside" hosts from their JVM. */
    static final String OUTSIDE_GATEWAY = "10.123.0.1";
    /** The directory of the private CA the outside hosts' certificates come from; the proxy trusts it upstream. */
    static final String OUTSIDE_PKI_KEY = "trimus-test.outside-pki";

    @Override
    public Map<String, String> start() {
        DockerClient docker = DockerClients.local();
        ensureNetwork(docker);
        ensureOutsideNetwork(docker);
        TestPki outside;
        try {
            outside = TestPki.create("Outside test CA");
        } catch (Exception e) {
            throw new IllegalStateException("cannot make the outside hosts' test CA", e);
        }
        int upstreamPort = TestUpstreamDns.reserve();
        return Map.of(
                "trimus.egress.dns.addr", GATEWAY + ":53",
                "trimus.egress.dns.upstream", "127.0.0.1:" + upstreamPort,
                "trimus.egress.proxy.port", String.valueOf(PROXY_PORT),
                // the host's own address on the outside network only through a /32 naming it
                "trimus.egress.proxy.allow-private", OUTSIDE_SUBNET + "," + OUTSIDE_GATEWAY + "/32",
                "trimus.egress.proxy.upstream-ca-file", outside.caPem.toString(),
                "trimus.encryption-key", ENCRYPTION_KEY,
                // the end-to-end stack blocks what scores as tunnelling (TunnellingEndToEndTest); no other test's
                // sandbox uses more than a few names
                "trimus.egress.tunnelling.action", "block",
                OUTSIDE_PKI_KEY, outside.dir().toString());
    }

    /**
     * The deployment's TRIMUS_ENCRYPTION_KEY in these tests: egress-service's, the adapter service's and run-service's
     * they start, the one key of every test stack ({@link TestOperator#ENCRYPTION_KEY}).
     */
    static final String ENCRYPTION_KEY = TestOperator.ENCRYPTION_KEY;

    /** The bridge network the tests' "outside" hosts live on, {@value #OUTSIDE_SUBNET}. */
    static void ensureOutsideNetwork(DockerClient docker) {
        try {
            docker.inspectNetworkCmd().withNetworkId(OUTSIDE_NETWORK).exec();
        } catch (NotFoundException missing) {
            docker.createNetworkCmd().withName(OUTSIDE_NETWORK).withDriver("bridge")
                    .withIpam(new Network.Ipam().withConfig(List.of(new Network.Ipam.Config()
                            .withSubnet(OUTSIDE_SUBNET).withGateway(OUTSIDE_GATEWAY))))
                    .withLabels(Map.of(TestImages.LABEL, "true"))
                    .exec();
        }
    }

    @Override
    public void stop() {
        // the network stays: the adapter service manages it and never deletes it either
    }

    private static void ensureNetwork(DockerClient docker) {
        try {
            docker.inspectNetworkCmd().withNetworkId(NETWORK).exec();
        } catch (NotFoundException missing) {
            docker.createNetworkCmd().withName(NETWORK).withDriver("bridge").withInternal(true)
                    .withIpam(new Network.Ipam().withConfig(List.of(
                            new Network.Ipam.Config().withSubnet(SUBNET).withGateway(GATEWAY))))
                    .withOptions(Map.of("com.docker.network.bridge.enable_icc", "false",
                            "com.docker.network.bridge.name", "trimus-egress0"))
                    .withLabels(Map.of("trimus.managed", "true"))
                    .exec();
        }
    }
}
