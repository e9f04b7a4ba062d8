package io.trimus.adapter.egress;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.events.RunState;
import io.trimus.events.adapter.AllowedNetworks;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Map;

/**
 * The check of a network other than the egress network, which an agent asked for by name: one that could let a
 * tenant reach the stack's services or another company's sandbox is refused before the container exists.
 */
final class TenantNetworks {

    private static final Logger LOG = Logger.getLogger(TenantNetworks.class);

    private final DockerClient docker;
    private final AllowedNetworks allowedNetworks;

    TenantNetworks(DockerClient docker, AllowedNetworks allowedNetworks) {
        this.docker = docker;
        this.allowedNetworks = allowedNetworks;
    }

    /**
     * A network other than the egress network, which an agent asked for by name: it must be exactly a network of that
     * name (Docker also resolves id prefixes, which could select the host's stack or the egress network without the
     * registration), internal, with inter-container traffic off, and carry no container but Trimus runs, so a tenant
     * can reach neither the stack's services nor another company's sandbox. A run learns only that it may not use the
     * network, in the same words whether it exists or not; the log says why.
     */
    void check(String requested) throws SandboxAttachment.Refused {
        String why;
        try {
            why = unsafe(requested, docker.inspectNetworkCmd().withNetworkId(requested).exec());
        } catch (NotFoundException e) {
            why = "it does not exist on the Docker engine";
        }
        if (why != null) {
            LOG.warnf("a run asked for network %s, which is refused: %s", requested, why);
            // worded as the dispatcher words an unlisted one: a tenant cannot tell the cases apart
            throw new SandboxAttachment.Refused("adapter_config.network " + allowedNetworks.refusal(requested), RunState.REJECTED);
        }
    }

    /** Why agents must not join {@code network}, or null when they may. */
    private String unsafe(String requested, Network network) {
        if (!requested.equals(network.getName())) {
            return "the name selects network " + network.getName() + " (" + network.getId() + ") by an id prefix";
        }
        if (AllowedNetworks.never(network.getName()) || "host".equals(network.getDriver())
                || "null".equals(network.getDriver())) {
            return "it is the host's or Docker's default network";
        }
        if (!Boolean.TRUE.equals(network.getInternal())) {
            return "it is not internal (--internal), so its containers could reach any address";
        }
        Map<String, String> options = network.getOptions() == null ? Map.of() : network.getOptions();
        if (!"false".equalsIgnoreCase(options.get(EgressNetworkSettings.OPTION_ICC))) {
            return "inter-container traffic is on (" + EgressNetworkSettings.OPTION_ICC + " is not false), so"
                    + " sandboxes on it could reach each other";
        }
        for (Container attached : docker.listContainersCmd().withShowAll(true)
                .withNetworkFilter(List.of(network.getId())).exec()) {
            if (attached.getLabels() == null || !attached.getLabels().containsKey(SandboxAttachment.LABEL_RUN)) {
                return "container " + attached.getId().substring(0, 12) + " on it is not a Trimus run (no label "
                        + SandboxAttachment.LABEL_RUN + ")";
            }
        }
        return null;
    }
}
