package io.trimus.adapter.egress.network;

import com.github.dockerjava.api.model.Network;
import io.trimus.commons.net.Cidr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The egress network as the Docker engine reports it: what sandboxes actually join, whatever the configuration says.
 *
 * @param id          the engine's network id; a network is never altered, so the id pins these facts
 * @param name        its name
 * @param subnet      its first IPv4 subnet, or null when it has none
 * @param gateway     its IPv4 gateway (the host's address on it), or null when it has no subnet
 * @param internal    {@code --internal}: no route off the network
 * @param iccDisabled {@code enable_icc=false}: containers on it cannot reach each other
 * @param bridgeName  the Linux bridge, or null when Docker named it
 * @param managed     labelled {@code trimus.managed=true}: this service created it
 * @param ipv6        IPv6 enabled: sandboxes would get addresses no registration or firewall rule knows
 */
public record EgressNetwork(String id, String name, Cidr subnet, String gateway, boolean internal,
                            boolean iccDisabled, String bridgeName, boolean managed, boolean ipv6) {

    /** An IPv4-only network. */
    public EgressNetwork(String id, String name, Cidr subnet, String gateway, boolean internal, boolean iccDisabled,
                         String bridgeName, boolean managed) {
        this(id, name, subnet, gateway, internal, iccDisabled, bridgeName, managed, false);
    }

    /** The facts of a network the engine listed or inspected. */
    public static EgressNetwork of(Network network) {
        Cidr subnet = null;
        String gateway = null;
        if (network.getIpam() != null && network.getIpam().getConfig() != null) {
            for (Network.Ipam.Config config : network.getIpam().getConfig()) {
                try {
                    subnet = Cidr.ipv4Subnet(config.getSubnet());
                } catch (IllegalArgumentException notIpv4) {
                    continue;
                }
                gateway = config.getGateway() != null && Cidr.isAddress(config.getGateway())
                        ? config.getGateway()
                        // Docker's own choice when a subnet is given without a gateway: the first host address
                        : Cidr.text(subnet.host(0));
                break;
            }
        }
        Map<String, String> options = network.getOptions() == null ? Map.of() : network.getOptions();
        Map<String, String> labels = network.getLabels() == null ? Map.of() : network.getLabels();
        return new EgressNetwork(network.getId(), network.getName(), subnet, gateway,
                Boolean.TRUE.equals(network.getInternal()),
                "false".equalsIgnoreCase(options.get(EgressNetworkSettings.OPTION_ICC)),
                options.get(EgressNetworkSettings.OPTION_BRIDGE_NAME),
                "true".equals(labels.get(EgressNetworkSettings.LABEL_MANAGED)),
                Boolean.TRUE.equals(network.getEnableIPv6()));
    }

    /** Why sandboxes must not join this network, or null when they may: fail-secure, never less isolation. */
    public String refusal() {
        if (!internal) {
            return "network " + name + " exists but is not internal (--internal), so its containers could reach any"
                    + " address; Trimus does not alter a network it did not create: remove it or configure another"
                    + " TRIMUS_EGRESS_NETWORK_NAME";
        }
        if (!iccDisabled) {
            return "network " + name + " exists but lets its containers reach each other (" + EgressNetworkSettings.OPTION_ICC
                    + " is not false), so one company's sandbox could reach another's; Trimus does not alter a network"
                    + " it did not create: remove it or configure another TRIMUS_EGRESS_NETWORK_NAME";
        }
        if (ipv6) {
            return "network " + name + " exists with IPv6 enabled, so sandboxes would get addresses that egress-service"
                    + " cannot attribute and the egress firewall does not filter; Trimus does not alter a network it did"
                    + " not create: remove it or configure another TRIMUS_EGRESS_NETWORK_NAME";
        }
        if (subnet == null || subnet.hostCount() < 2) {
            return "network " + name + " exists but has no IPv4 subnet with room for sandboxes, so sandbox addresses"
                    + " cannot be pinned: remove it or configure another TRIMUS_EGRESS_NETWORK_NAME";
        }
        return null;
    }

    /** How this network differs from the configured one; empty when it is exactly what this service creates. */
    public List<String> differencesFrom(EgressNetworkSettings settings) {
        List<String> differences = new ArrayList<>();
        if (subnet == null || !subnet.equals(settings.subnet())) {
            differences.add("subnet " + subnet + " instead of " + settings.subnet());
        }
        if (gateway == null || !gateway.equals(settings.gateway())) {
            differences.add("gateway " + gateway + " instead of " + settings.gateway());
        }
        if (!internal) {
            differences.add("not internal");
        }
        if (!iccDisabled) {
            differences.add("inter-container traffic enabled, so sandboxes on it can reach each other");
        }
        if (bridgeName == null || !bridgeName.equals(settings.bridgeName())) {
            differences.add("bridge " + (bridgeName == null ? "named by Docker" : bridgeName) + " instead of "
                    + settings.bridgeName());
        }
        if (!managed) {
            differences.add("not created by Trimus (no label " + EgressNetworkSettings.LABEL_MANAGED + "=true)");
        }
        return differences;
    }
}
