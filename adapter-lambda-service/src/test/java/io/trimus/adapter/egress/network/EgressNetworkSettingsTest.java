package io.trimus.adapter.egress.network;

import io.trimus.commons.net.Cidr;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A wrong TRIMUS_EGRESS_* value stops the service at boot, naming the knob. */
class EgressNetworkSettingsTest {

    private static EgressNetworkSettings settings(String subnet, String gateway, String bridge, String dns) {
        return new EgressNetworkSettings("trimus-egress-allowlist", Cidr.ipv4Subnet(subnet), gateway, bridge,
                Optional.ofNullable(dns));
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        EgressNetworkSettings defaults = EgressNetworkSettings.defaults();
        assertThat(defaults.name()).isEqualTo("trimus-egress-allowlist");
        assertThat(defaults.subnet()).hasToString("172.30.0.0/24");
        assertThat(defaults.gateway()).isEqualTo("172.30.0.1");
        assertThat(defaults.bridgeName()).isEqualTo("trimus-egress0");
        assertThat(defaults.dnsDefault()).isEmpty();
        assertThat(defaults.driverOptions()).containsEntry("com.docker.network.bridge.enable_icc", "false")
                .containsEntry("com.docker.network.bridge.name", "trimus-egress0");
    }

    @Test
    void theGatewayMustBeAHostOfTheSubnet() {
        assertThatThrownBy(() -> settings("172.30.0.0/24", "172.31.0.1", "trimus-egress0", null))
                .hasMessageContaining("TRIMUS_EGRESS_NETWORK_GATEWAY");
        assertThatThrownBy(() -> settings("172.30.0.0/24", "172.30.0.255", "trimus-egress0", null))
                .hasMessageContaining("TRIMUS_EGRESS_NETWORK_GATEWAY");
    }

    @Test
    void aSubnetWithoutRoomForASandboxIsRefused() {
        assertThatThrownBy(() -> settings("172.30.0.0/31", "172.30.0.1", "trimus-egress0", null))
                .hasMessageContaining("TRIMUS_EGRESS_NETWORK_SUBNET");
    }

    @Test
    void theBridgeNameMustFitALinuxInterfaceName() {
        assertThatThrownBy(() -> settings("172.30.0.0/24", "172.30.0.1", "trimus-egress-bridge0", null))
                .hasMessageContaining("TRIMUS_EGRESS_NETWORK_BRIDGE_NAME");
    }

    @Test
    void theDnsDefaultMustBeAnAddress() {
        assertThatThrownBy(() -> settings("172.30.0.0/24", "172.30.0.1", "trimus-egress0", "resolver.local"))
                .hasMessageContaining("TRIMUS_EGRESS_DNS_DEFAULT");
        assertThat(settings("172.30.0.0/24", "172.30.0.1", "trimus-egress0", " ").dnsDefault()).isEmpty();
        assertThat(settings("172.30.0.0/24", "172.30.0.1", "trimus-egress0", "172.30.0.53").dnsDefault())
                .contains("172.30.0.53");
    }
}
