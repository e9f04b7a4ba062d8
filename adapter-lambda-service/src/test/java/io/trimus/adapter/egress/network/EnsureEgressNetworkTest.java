package io.trimus.adapter.egress.network;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Wiring;
import io.trimus.commons.net.Cidr;
import io.trimus.testing.DockerClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * EnsureEgressNetwork against the real engine, for the cases the one app boot cannot show: a network of that name
 * that is already there and not what Trimus would create. It is never altered; it is used only when internal.
 */
class EnsureEgressNetworkTest {

    private static final String NAME = "trimus-test-egress-ensure";
    private static final String SUBNET = "10.199.80.0/24";

    private final DockerClient docker = DockerClients.local();
    private final EgressNetworkSettings settings = new EgressNetworkSettings(NAME, Cidr.ipv4Subnet("10.199.81.0/24"),
            "10.199.81.1", "trimus-egens0", Optional.empty());
    private final EnsureEgressNetwork ensure = Wiring.egressNetwork(docker, settings, "local");

    @AfterEach
    void removeNetwork() throws Exception {
        ensure.stop();
        EgressTestResource.removeNetwork(docker, NAME);
        docker.close();
    }

    @Test
    void aMissingNetworkIsCreatedOnceAndFoundAgainAfterwards() {
        EnsureEgressNetwork.Status created = ensure.attempt();

        assertThat(created.ready()).isTrue();
        Network network = docker.inspectNetworkCmd().withNetworkId(NAME).exec();
        assertThat(network.getId()).isEqualTo(created.network().id());
        assertThat(network.getInternal()).isTrue();
        assertThat(network.getEnableIPv6()).isFalse();
        assertThat(network.getIpam().getConfig()).singleElement().satisfies(ipam -> {
            assertThat(ipam.getSubnet()).isEqualTo("10.199.81.0/24");
            assertThat(ipam.getGateway()).isEqualTo("10.199.81.1");
        });
        assertThat(network.getOptions()).containsEntry("com.docker.network.bridge.enable_icc", "false")
                .containsEntry("com.docker.network.bridge.name", "trimus-egens0");
        assertThat(network.getLabels()).containsEntry("trimus.managed", "true");

        EnsureEgressNetwork.Status again = Wiring.egressNetwork(docker, settings, "local").attempt();

        assertThat(again.ready()).isTrue();
        assertThat(again.network().id()).as("found, not created twice").isEqualTo(created.network().id());
        assertThat(again.network().differencesFrom(settings)).isEmpty();
    }

    @Test
    void anExistingNetworkThatIsNotInternalIsLeftAloneAndNeverReady() {
        String foreign = foreignNetwork(false, false);

        EnsureEgressNetwork.Status status = ensure.attempt();

        assertThat(status.ready()).isFalse();
        assertThat(status.problem()).startsWith("network " + NAME + " exists but is not internal");
        assertThat(status.refused()).isTrue();
        assertUntouched(foreign, false, false);
        assertThat(ensure.verify().ready()).isFalse();
    }

    @Test
    void anExistingInternalNetworkWithInterContainerTrafficOnIsLeftAloneAndRefused() {
        String foreign = foreignNetwork(true, false);

        EnsureEgressNetwork.Status status = ensure.attempt();

        assertThat(status.ready()).isFalse();
        assertThat(status.refused()).as("runs needing it are REJECTED, not FAILED").isTrue();
        assertThat(status.problem()).isEqualTo("network " + NAME + " exists but lets its containers reach each other"
                + " (com.docker.network.bridge.enable_icc is not false), so one company's sandbox could reach"
                + " another's; Trimus does not alter a network it did not create: remove it or configure another"
                + " TRIMUS_EGRESS_NETWORK_NAME");
        assertUntouched(foreign, true, false);
        assertThat(ensure.verify().ready()).isFalse();
    }

    @Test
    void anExistingNetworkWithIpv6IsRefused() {
        EgressNetwork ipv6 = new EgressNetwork("0123456789ab", NAME, Cidr.ipv4Subnet(SUBNET), "10.199.80.1", true,
                true, "trimus-egens0", true, true);

        assertThat(ipv6.refusal()).startsWith("network " + NAME + " exists with IPv6 enabled");
        assertThat(new EgressNetwork("0123456789ab", NAME, Cidr.ipv4Subnet(SUBNET), "10.199.80.1", true, true,
                "trimus-egens0", true, false).refusal()).isNull();
    }

    @Test
    void aRealInternalNetworkWithInterContainerTrafficOffButIpv6OnIsRefusedAndLeftAlone() {
        String foreign = docker.createNetworkCmd().withName(NAME).withDriver("bridge").withCheckDuplicate(true)
                .withInternal(true).withEnableIpv6(true)
                .withOptions(Map.of("com.docker.network.bridge.enable_icc", "false"))
                .withIpam(new Network.Ipam().withConfig(new Network.Ipam.Config().withSubnet(SUBNET),
                        new Network.Ipam.Config().withSubnet("fd00:7e57:e9e5::/64")))
                .withLabels(Map.of(EgressTestResource.TEST_LABEL, "true"))
                .exec().getId();

        EnsureEgressNetwork.Status status = ensure.attempt();

        assertThat(status.ready()).isFalse();
        assertThat(status.refused()).as("runs needing it are REJECTED, not FAILED").isTrue();
        assertThat(status.problem()).startsWith("network " + NAME + " exists with IPv6 enabled");
        assertThat(docker.inspectNetworkCmd().withNetworkId(foreign).exec().getEnableIPv6()).isTrue();
        assertThat(ensure.verify().ready()).isFalse();
    }

    @Test
    void anExistingInternalNetworkWithAnotherSubnetIsUsedAsItIsWithoutBeingAltered() {
        String foreign = foreignNetwork(true, true);

        EnsureEgressNetwork.Status status = ensure.attempt();

        assertThat(status.ready()).isTrue();
        assertThat(status.network().id()).isEqualTo(foreign);
        assertThat(status.network().subnet()).hasToString(SUBNET);
        assertThat(status.network().gateway()).isEqualTo("10.199.80.1");
        assertThat(status.network().differencesFrom(settings)).anySatisfy(d -> assertThat(d).startsWith("subnet"))
                .anySatisfy(d -> assertThat(d).startsWith("not created by Trimus"));
        assertUntouched(foreign, true, true);
    }

    @Test
    void aNetworkRemovedAfterItWasReadyIsNotReadyUntilItIsCreatedAgain() {
        String first = ensure.attempt().network().id();
        EgressTestResource.removeNetwork(docker, NAME);

        EnsureEgressNetwork.Status status = ensure.verify();

        assertThat(status.ready()).isFalse();
        assertThat(status.problem()).contains("was removed");
        // outside the app no scheduler ticks: the test does, as Quarkus' scheduler does every second
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            ensure.tick();
            return ensure.status().ready();
        });
        assertThat(ensure.status().network().id()).isNotEqualTo(first);
        assertThat(docker.inspectNetworkCmd().withNetworkId(NAME).exec().getId())
                .isEqualTo(ensure.status().network().id());
    }

    /** A network of the egress name that Trimus did not create. */
    private String foreignNetwork(boolean internal, boolean iccOff) {
        return docker.createNetworkCmd().withName(NAME).withDriver("bridge").withCheckDuplicate(true)
                .withInternal(internal)
                .withOptions(iccOff ? Map.of("com.docker.network.bridge.enable_icc", "false") : Map.of())
                .withIpam(new Network.Ipam().withConfig(new Network.Ipam.Config().withSubnet(SUBNET)))
                .withLabels(Map.of(EgressTestResource.TEST_LABEL, "true"))
                .exec().getId();
    }

    private void assertUntouched(String id, boolean internal, boolean iccOff) {
        Network network = docker.inspectNetworkCmd().withNetworkId(id).exec();
        assertThat(network.getName()).isEqualTo(NAME);
        assertThat(network.getInternal()).isEqualTo(internal);
        assertThat(network.getIpam().getConfig()).singleElement()
                .satisfies(ipam -> assertThat(ipam.getSubnet()).isEqualTo(SUBNET));
        assertThat(network.getLabels()).doesNotContainKey("trimus.managed");
        assertThat(network.getOptions()).doesNotContainKey("com.docker.network.bridge.name");
        if (iccOff) {
            assertThat(network.getOptions()).containsEntry("com.docker.network.bridge.enable_icc", "false");
        } else {
            assertThat(network.getOptions()).doesNotContainKey("com.docker.network.bridge.enable_icc");
        }
        assertThat(docker.listNetworksCmd().withNameFilter(NAME).exec())
                .filteredOn(n -> NAME.equals(n.getName())).hasSize(1);
    }
}
