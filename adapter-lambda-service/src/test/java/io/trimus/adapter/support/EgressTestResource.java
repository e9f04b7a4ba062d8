package io.trimus.adapter.support;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.trimus.adapter.egress.ca.EgressCaVolumes;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The egress side of the one app boot all {@code @QuarkusTest}s share (scope GLOBAL, so no test restarts the app for
 * it): a test egress network name, subnet and bridge (so a test run never touches a real
 * {@code trimus-egress-allowlist}), an {@link EgressStandIn} as egress-service, and a foreign network that exists
 * before the app boots, to prove the adapter leaves other networks alone.
 */
public class EgressTestResource implements QuarkusTestResourceLifecycleManager {

    /** The egress network of the app under test. */
    public static final String NETWORK = "trimus-test-egress";
    public static final String SUBNET = "10.199.77.0/24";
    public static final String GATEWAY = "10.199.77.1";
    public static final String BRIDGE = "trimus-egtest0";
    /** A plain (not internal) bridge network that exists before boot; also where reachability targets live. */
    public static final String FOREIGN_NETWORK = "trimus-test-foreign";
    public static final String FOREIGN_SUBNET = "10.199.78.0/24";
    /** Config key (outside {@code trimus.}, which the app's mapping owns) of the foreign network's id. */
    public static final String FOREIGN_NETWORK_ID_KEY = "trimus-test.egress.foreign-network-id";
    /** Config key of the stand-in's address. */
    public static final String STAND_IN_KEY = "trimus.egress.service-url";
    /**
     * Every container or network these tests create themselves carries it, so they can be cleaned up by label
     * without touching what tests of other modules create on the same engine.
     */
    public static final String TEST_LABEL = "trimus.test.adapter-egress";

    private static final Object LOCK = new Object();
    private static int users;
    private static EgressStandIn standIn;
    private static DockerClient docker;
    private static Map<String, String> config;

    @Override
    public Map<String, String> start() {
        synchronized (LOCK) {
            if (users++ == 0) {
                docker = DockerClients.local();
                // left by a killed earlier run: start from nothing, so the app really creates its network
                removeTestContainers(docker);
                removeNetwork(docker, NETWORK);
                removeNetwork(docker, FOREIGN_NETWORK);
                String foreignId = docker.createNetworkCmd().withName(FOREIGN_NETWORK).withDriver("bridge")
                        .withCheckDuplicate(true)
                        .withIpam(new Network.Ipam().withConfig(new Network.Ipam.Config().withSubnet(FOREIGN_SUBNET)))
                        .withLabels(Map.of(TEST_LABEL, "true"))
                        .exec().getId();
                standIn = EgressStandIn.start(docker);
                config = new HashMap<>();
                config.put(STAND_IN_KEY, standIn.url());
                config.put("trimus.egress.network.name", NETWORK);
                config.put("trimus.egress.network.subnet", SUBNET);
                config.put("trimus.egress.network.gateway", GATEWAY);
                config.put("trimus.egress.network.bridge-name", BRIDGE);
                config.put("trimus.egress.registration-timeout", "2s");
                config.put("trimus.egress.resolver-check-addr", standIn.resolverAddress());
                config.put("trimus.egress.proxy-check-addr", standIn.proxyAddress());
                // the app's fail-secure tests end in seconds; ReadyWaitTest proves the wait at the runner
                config.put("trimus.egress.ready-timeout", "3s");
                config.put(FOREIGN_NETWORK_ID_KEY, foreignId);
            }
            return config;
        }
    }

    @Override
    public void stop() {
        synchronized (LOCK) {
            if (--users > 0) {
                return;
            }
            String caFingerprint = standIn.caFingerprint();
            standIn.close();
            removeTestContainers(docker);
            removeCaVolumes(docker, caFingerprint);
            removeNetwork(docker, FOREIGN_NETWORK);
            // the app has stopped and removed its containers: the test's copy of the egress network can go
            removeNetwork(docker, NETWORK);
            try {
                docker.close();
            } catch (IOException ignored) {
                // the process ends anyway
            }
            standIn = null;
            docker = null;
        }
    }

    /** Removes the containers tests created themselves. */
    public static void removeTestContainers(DockerClient docker) {
        Containers.removeByLabel(docker, TEST_LABEL, "true");
    }

    /** Removes the egress CA volume the app made for this run's test CA (each test run makes a new CA). */
    private static void removeCaVolumes(DockerClient docker, String fingerprint) {
        var volumes = docker.listVolumesCmd().withFilter("label",
                List.of(EgressCaVolumes.LABEL_FINGERPRINT + "=" + fingerprint)).exec().getVolumes();
        for (var volume : volumes == null ? List.<com.github.dockerjava.api.command.InspectVolumeResponse>of()
                : volumes) {
            try {
                docker.removeVolumeCmd(volume.getName()).exec();
            } catch (NotFoundException | ConflictException goneOrInUse) {
                // gone meanwhile, or still mounted by a container being removed: harmless, it is tiny
            }
        }
    }

    /** Removes a network by exact name if it exists and nothing is attached; tests only, never the product. */
    public static void removeNetwork(DockerClient docker, String name) {
        for (Network network : docker.listNetworksCmd().withNameFilter(name).exec()) {
            if (name.equals(network.getName())) {
                try {
                    docker.removeNetworkCmd(network.getId()).exec();
                } catch (NotFoundException | ConflictException goneOrInUse) {
                    // gone meanwhile, or still in use by a container being removed: harmless for the next run
                }
            }
        }
    }
}
