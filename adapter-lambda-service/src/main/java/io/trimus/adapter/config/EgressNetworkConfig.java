package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

/** The egress network: created at boot when missing, never altered or deleted when it is not Trimus's own. */
public interface EgressNetworkConfig {
    /** Name of the egress network (TRIMUS_EGRESS_NETWORK_NAME, default trimus-egress-allowlist). */
    @WithDefault("trimus-egress-allowlist")
    String name();

    /** IPv4 subnet of the egress network, sandbox addresses included (TRIMUS_EGRESS_NETWORK_SUBNET, default 172.30.0.0/24). */
    @WithDefault("172.30.0.0/24")
    String subnet();

    /**
     * Gateway of the egress network: the host's address on it, where the Trimus resolver listens
     * (TRIMUS_EGRESS_NETWORK_GATEWAY, default 172.30.0.1).
     */
    @WithDefault("172.30.0.1")
    String gateway();

    /**
     * Linux name of the network's bridge, fixed so host firewall rules can name it; at most 15 characters
     * (TRIMUS_EGRESS_NETWORK_BRIDGE_NAME, default trimus-egress0).
     */
    @WithDefault("trimus-egress0")
    String bridgeName();
}
