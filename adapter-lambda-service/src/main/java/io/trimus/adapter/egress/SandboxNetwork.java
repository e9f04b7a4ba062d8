package io.trimus.adapter.egress;


import java.util.List;
import java.util.Optional;

/**
 * Where a container on the egress network sits: its pinned address ({@code --ip}, the identity egress-service
 * attributes DNS queries by) and its resolver ({@code --dns}: TRIMUS_EGRESS_DNS_DEFAULT, else the network's gateway).
 *
 * @param network     the egress network's name
 * @param ipv4Address the sandbox's address, reserved from the pool for this run
 * @param dns         the resolvers the container is given
 */
public record SandboxNetwork(String network, String ipv4Address, List<String> dns) {

    public SandboxNetwork {
        dns = List.copyOf(dns);
    }

    /** The sandbox at {@code address} on {@code network}, resolving through the configured default or the gateway. */
    public static SandboxNetwork on(EgressNetwork network, String address, Optional<String> dnsDefault) {
        return new SandboxNetwork(network.name(), address, List.of(dnsDefault.orElse(network.gateway())));
    }

    /** The same, with the DNS default of {@code settings}. */
    public static SandboxNetwork on(EgressNetwork network, String address, EgressNetworkSettings settings) {
        return on(network, address, settings.dnsDefault());
    }
}
