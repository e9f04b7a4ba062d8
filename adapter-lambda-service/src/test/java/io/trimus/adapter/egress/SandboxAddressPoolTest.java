package io.trimus.adapter.egress;

import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.commons.net.Cidr;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which address a sandbox gets: never the network, gateway, broadcast, one held or one the engine has in use. */
class SandboxAddressPoolTest {

    private static EgressNetwork network(String subnet, String gateway) {
        return new EgressNetwork("id", "trimus-egress-allowlist", Cidr.ipv4Subnet(subnet), gateway, true, true,
                "trimus-egress0", true);
    }

    private final SandboxAddressPool pool = new SandboxAddressPool();

    @Test
    void theGatewayIsSkippedAndAddressesAreHandedOutOnce() {
        EgressNetwork net = network("172.30.0.0/24", "172.30.0.1");
        assertThat(pool.reserve(net, Set.of())).contains("172.30.0.2");
        assertThat(pool.reserve(net, Set.of())).contains("172.30.0.3");
        assertThat(pool.reserved()).containsExactlyInAnyOrder("172.30.0.2", "172.30.0.3");
    }

    @Test
    void addressesTheEngineReportsInUseAreSkipped() {
        EgressNetwork net = network("172.30.0.0/24", "172.30.0.1");
        assertThat(pool.reserve(net, Set.of("172.30.0.2", "172.30.0.3"))).contains("172.30.0.4");
    }

    @Test
    void aFullSubnetHasNoAddressAndNeverTheNetworkOrBroadcastAddress() {
        EgressNetwork net = network("10.0.0.0/29", "10.0.0.1"); // hosts .1-.6, .1 is the gateway
        Set<String> handedOut = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            handedOut.add(pool.reserve(net, Set.of()).orElseThrow());
        }
        assertThat(handedOut).containsExactlyInAnyOrder("10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6");
        assertThat(pool.reserve(net, Set.of())).isEqualTo(Optional.empty());
    }

    @Test
    void aReleasedAddressComesBackOnlyAfterTheOthers() {
        EgressNetwork net = network("10.0.0.0/29", "10.0.0.6"); // gateway at the end this time
        String first = pool.reserve(net, Set.of()).orElseThrow();
        pool.release(first);
        assertThat(pool.reserve(net, Set.of())).contains("10.0.0.2");
        assertThat(pool.reserve(net, Set.of())).contains("10.0.0.3");
        assertThat(pool.reserve(net, Set.of())).contains("10.0.0.4");
        assertThat(pool.reserve(net, Set.of())).contains("10.0.0.5");
        assertThat(pool.reserve(net, Set.of())).as("wrapped round to the released one").contains(first);
        assertThat(pool.reserve(net, Set.of())).isEmpty();
    }

    @Test
    void subnetsAreParsedStrictly() {
        Cidr subnet = Cidr.ipv4Subnet("172.30.0.0/24");
        assertThat(subnet.hostCount()).isEqualTo(254);
        assertThat(Cidr.text(subnet.broadcast())).isEqualTo("172.30.0.255");
        assertThat(subnet.isHost(Cidr.address("172.30.0.0"))).isFalse();
        assertThat(subnet.isHost(Cidr.address("172.30.0.255"))).isFalse();
        assertThat(subnet.isHost(Cidr.address("172.30.1.1"))).isFalse();
        assertThat(subnet.isHost(Cidr.address("172.30.0.254"))).isTrue();
        assertThatThrownBy(() -> Cidr.ipv4Subnet("172.30.0.5/24")).hasMessageContaining("172.30.0.0/24");
        assertThatThrownBy(() -> Cidr.ipv4Subnet("172.300.0.0/24")).hasMessageContaining("above 255");
        assertThatThrownBy(() -> Cidr.ipv4Subnet("fd00::/64")).hasMessageContaining("not an IPv4 subnet");
    }
}
