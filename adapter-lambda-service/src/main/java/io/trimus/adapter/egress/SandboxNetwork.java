package io.trimus.adapter.egress;

import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.events.adapter.EgressProxyEnv;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a container on the egress network sits: its pinned address ({@code --ip}, the identity egress-service
 * attributes DNS queries and proxy connections by), its resolver ({@code --dns}: TRIMUS_EGRESS_DNS_DEFAULT, else the
 * network's gateway) and its explicit proxy (on the resolver's address, TRIMUS_EGRESS_PROXY_PORT).
 *
 * @param network     the egress network's name
 * @param ipv4Address the sandbox's address, reserved from the pool for this run
 * @param dns         the resolvers the container is given
 * @param proxy       {@code host:port} of the egress proxy the container's HTTPS_PROXY / HTTP_PROXY name
 */
public record SandboxNetwork(String network, String ipv4Address, List<String> dns, String proxy) {

    public SandboxNetwork {
        dns = List.copyOf(dns);
    }

    /**
     * The sandbox at {@code address} on {@code network}, resolving through the configured default or the gateway, its
     * proxy on that same address at {@code proxyPort}.
     */
    public static SandboxNetwork on(EgressNetwork network, String address, Optional<String> dnsDefault,
                                    int proxyPort) {
        String resolver = dnsDefault.orElse(network.gateway());
        return new SandboxNetwork(network.name(), address, List.of(resolver), resolver + ":" + proxyPort);
    }

    /** The same, with the DNS default of {@code settings}. */
    public static SandboxNetwork on(EgressNetwork network, String address, EgressNetworkSettings settings,
                                    int proxyPort) {
        return on(network, address, settings.dnsDefault(), proxyPort);
    }

    /** The proxy settings every container here gets, written over anything an agent asked for. */
    public Map<String, String> proxyEnv() {
        return EgressProxyEnv.of(proxy);
    }
}
