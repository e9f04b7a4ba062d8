package io.trimus.adapter.egress.network;

import io.trimus.adapter.config.EgressConfig;
import io.trimus.adapter.config.EgressNetworkConfig;
import io.trimus.commons.net.Cidr;
import io.trimus.adapter.config.TrimusConfig;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The egress network as configured, checked once at boot so a wrong TRIMUS_EGRESS_NETWORK_* value stops the service
 * instead of leaving every sandbox run to fail later.
 *
 * @param name       TRIMUS_EGRESS_NETWORK_NAME
 * @param subnet     TRIMUS_EGRESS_NETWORK_SUBNET
 * @param gateway    TRIMUS_EGRESS_NETWORK_GATEWAY, a host address inside the subnet
 * @param bridgeName TRIMUS_EGRESS_NETWORK_BRIDGE_NAME
 * @param dnsDefault TRIMUS_EGRESS_DNS_DEFAULT; empty means the gateway of the network actually in use
 */
public record EgressNetworkSettings(String name, Cidr subnet, String gateway, String bridgeName,
                                    Optional<String> dnsDefault) {

    /** Marks a network this service created; only such a network is Trimus's own. */
    public static final String LABEL_MANAGED = "trimus.managed";
    /** Docker's bridge driver option that stops containers of the network reaching each other. */
    public static final String OPTION_ICC = "com.docker.network.bridge.enable_icc";
    /** Docker's bridge driver option that names the Linux bridge. */
    public static final String OPTION_BRIDGE_NAME = "com.docker.network.bridge.name";

    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}");
    /** A Linux interface name: at most 15 characters, no slash, colon or whitespace. */
    private static final Pattern BRIDGE = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,14}");

    public EgressNetworkSettings {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_NETWORK_NAME must be a Docker network name, got '" + name + "'");
        }
        if (subnet.hostCount() < 2) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_NETWORK_SUBNET " + subnet
                    + " is too small: it needs room for the gateway and at least one sandbox (/30 or larger)");
        }
        if (!Cidr.isAddress(gateway) || !subnet.isHost(Cidr.address(gateway))) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_NETWORK_GATEWAY must be a host address inside " + subnet
                    + ", got '" + gateway + "'");
        }
        if (bridgeName == null || !BRIDGE.matcher(bridgeName).matches()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_NETWORK_BRIDGE_NAME must be a Linux interface name of at"
                    + " most 15 letters, digits, '.', '_' or '-', got '" + bridgeName + "'");
        }
        dnsDefault = dnsDefault.map(String::trim).filter(d -> !d.isEmpty());
        if (dnsDefault.isPresent() && !Cidr.isAddress(dnsDefault.get())) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_DNS_DEFAULT must be an IPv4 address such as 172.30.0.1, got '"
                    + dnsDefault.get() + "'");
        }
        gateway = Cidr.text(Cidr.address(gateway));
    }

    /** The settings configured for this service. */
    public static EgressNetworkSettings from(EgressConfig config) {
        EgressNetworkConfig network = config.network();
        Cidr subnet;
        try {
            subnet = Cidr.ipv4Subnet(network.subnet());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_NETWORK_SUBNET: " + e.getMessage(), e);
        }
        return new EgressNetworkSettings(network.name(), subnet, network.gateway(), network.bridgeName(),
                config.dnsDefault());
    }

    /** The documented defaults (trimus-egress-allowlist, 172.30.0.0/24, gateway 172.30.0.1, bridge trimus-egress0). */
    public static EgressNetworkSettings defaults() {
        return new EgressNetworkSettings("trimus-egress-allowlist", Cidr.ipv4Subnet("172.30.0.0/24"), "172.30.0.1",
                "trimus-egress0", Optional.empty());
    }

    /** The driver options of a network this service creates: the fixed bridge name and no inter-container traffic. */
    public Map<String, String> driverOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(OPTION_BRIDGE_NAME, bridgeName);
        options.put(OPTION_ICC, "false");
        return options;
    }
}
