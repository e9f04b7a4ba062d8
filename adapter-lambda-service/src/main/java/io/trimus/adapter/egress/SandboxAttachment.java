package io.trimus.adapter.egress;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.events.RunState;
import io.trimus.events.adapter.AllowedNetworks;
import io.trimus.events.RunRequested;
import io.trimus.events.SandboxRegistration;
import io.trimus.events.adapter.DockerAdapterConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A container's way onto the egress network and off it again: which network a name really selects, the sandbox's
 * pinned address, the resolver check, the registration with egress-service before start, and the deregistration and
 * release after the container is gone. The container runner calls it in that order and knows nothing of DNS.
 */
@ApplicationScoped
public class SandboxAttachment {

    private static final Logger LOG = Logger.getLogger(SandboxAttachment.class);

    private final DockerClient docker;
    private final EnsureEgressNetwork egressNetwork;
    private final SandboxAddressPool addresses;
    private final EgressServiceClient egressService;
    private final ResolverProbe resolverProbe;

    /** The label every container of a Trimus run carries (its run id); nothing else may share a tenant's network. */
    public static final String LABEL_RUN = "trimus.run_id";

    private final AllowedNetworks allowedNetworks;

    /**
     * A container that must not join the network it asked for, with the one sentence that says why.
     * {@link #state()} is REJECTED for a policy refusal (the network is not allowed, or the egress network breaks its
     * promise) and FAILED for a failure that may pass (the resolver, the registration, a network being created).
     */
    public static final class Refused extends Exception {
        private final RunState state;

        Refused(String reason) {
            this(reason, RunState.FAILED);
        }

        Refused(String reason, RunState state) {
            super(reason, null, false, false);
            this.state = state;
        }

        /** How the run ends. */
        public RunState state() {
            return state;
        }
    }

    @Inject
    public SandboxAttachment(DockerClient docker, EnsureEgressNetwork egressNetwork, SandboxAddressPool addresses,
                             EgressServiceClient egressService, ResolverProbe resolverProbe, TrimusConfig config) {
        this(docker, egressNetwork, addresses, egressService, resolverProbe,
                new AllowedNetworks(config.docker().allowedNetworks()));
    }

    /** With the default networks: {@code none} and the default egress network. */
    public SandboxAttachment(DockerClient docker, EnsureEgressNetwork egressNetwork, SandboxAddressPool addresses,
                             EgressServiceClient egressService, ResolverProbe resolverProbe) {
        this(docker, egressNetwork, addresses, egressService, resolverProbe,
                new AllowedNetworks(List.of(DockerAdapterConfig.NETWORK_NONE, egressNetwork.settings().name())));
    }

    public SandboxAttachment(DockerClient docker, EnsureEgressNetwork egressNetwork, SandboxAddressPool addresses,
                             EgressServiceClient egressService, ResolverProbe resolverProbe,
                             AllowedNetworks allowedNetworks) {
        this.allowedNetworks = allowedNetworks;
        this.docker = docker;
        this.egressNetwork = egressNetwork;
        this.addresses = addresses;
        this.egressService = egressService;
        this.resolverProbe = resolverProbe;
    }

    /**
     * Checks the network a container is to join and, for the egress network, reserves the sandbox's address and
     * checks its resolver. Docker also resolves a network by an id prefix, so a harmless-looking name could select the
     * host's network stack, or the egress network without the registration: check what the name resolves to.
     *
     * @return the sandbox's place on the egress network, or null for any other network
     * @throws Refused when the container must not join it
     */
    public SandboxNetwork attach(String requested) throws Refused {
        if (DockerAdapterConfig.NETWORK_NONE.equals(requested)) {
            return null;
        }
        SandboxNetwork sandbox = reserve(requested);
        if (sandbox == null) {
            return null;
        }
        String resolverProblem;
        try {
            resolverProblem = resolverProbe.problem(sandbox.dns().get(0));
        } catch (RuntimeException e) {
            addresses.release(sandbox.ipv4Address());
            throw e;
        }
        if (resolverProblem != null) {
            addresses.release(sandbox.ipv4Address());
            throw new Refused(resolverProblem + "; the container was not started");
        }
        return sandbox;
    }

    private SandboxNetwork reserve(String requested) throws Refused {
        String egressName = egressNetwork.settings().name();
        if (!requested.equals(egressName)) {
            checkTenantNetwork(requested);
            return null;
        }
        EnsureEgressNetwork.Status egress = egressNetwork.status();
        if (!egress.ready()) {
            throw egressNotReady(egress);
        }
        Network network;
        try {
            network = docker.inspectNetworkCmd().withNetworkId(requested).exec();
        } catch (NotFoundException e) {
            egressNetwork.lost(egress, "network " + egressName + " was removed from the Docker engine;"
                    + " creating it again");
            throw new Refused(notReady("it no longer exists on the Docker engine; the adapter service creates it"
                    + " again"));
        }
        if (!egress.network().id().equals(network.getId())) {
            egressNetwork.lost(egress, "network " + egressName + " was replaced by another network of that name;"
                    + " checking it again");
            throw new Refused(notReady("it was replaced since it was checked; the adapter service checks it again"));
        }
        EgressNetwork checked = egress.network();
        String address = addresses.reserve(checked, attachedAddresses(network)).orElseThrow(() -> new Refused(
                "no free sandbox address left on egress network " + egressName + " (" + checked.subnet() + ")"));
        return SandboxNetwork.on(checked, address, egressNetwork.settings());
    }

    /**
     * A network other than the egress network, which an agent asked for by name: it must be exactly a network of that
     * name (Docker also resolves id prefixes, which could select the host's stack or the egress network without the
     * registration), internal, with inter-container traffic off, and carry no container but Trimus runs, so a tenant
     * can reach neither the stack's services nor another company's sandbox. A run learns only that it may not use the
     * network, in the same words whether it exists or not; the log says why.
     */
    private void checkTenantNetwork(String requested) throws Refused {
        String why;
        try {
            why = unsafe(requested, docker.inspectNetworkCmd().withNetworkId(requested).exec());
        } catch (NotFoundException e) {
            why = "it does not exist on the Docker engine";
        }
        if (why != null) {
            LOG.warnf("a run asked for network %s, which is refused: %s", requested, why);
            // worded as the dispatcher words an unlisted one: a tenant cannot tell the cases apart
            throw new Refused("adapter_config.network " + allowedNetworks.refusal(requested), RunState.REJECTED);
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
            if (attached.getLabels() == null || !attached.getLabels().containsKey(LABEL_RUN)) {
                return "container " + attached.getId().substring(0, 12) + " on it is not a Trimus run (no label "
                        + LABEL_RUN + ")";
            }
        }
        return null;
    }

    /**
     * Registers the sandbox with egress-service, synchronously, before its container starts: its very first DNS
     * query must already be attributed to its company.
     *
     * @throws Refused when egress-service did not confirm; the container must not start
     */
    public void register(RunRequested run, SandboxNetwork sandbox, String containerId)
            throws Refused, InterruptedException {
        try {
            egressService.register(sandbox.ipv4Address(),
                    new SandboxRegistration(run.companyId(), run.agentId(), run.runId(), containerId));
            LOG.debugf("run %s: sandbox %s registered with egress-service", run.runId(), sandbox.ipv4Address());
        } catch (EgressServiceClient.RegistrationFailed e) {
            throw new Refused("could not register the sandbox with egress-service: " + e.getMessage()
                    + "; the container was not started");
        }
    }

    /**
     * Takes a sandbox whose container is gone off the egress network: its registration is removed (when one was sent)
     * before its address can be handed out again.
     */
    public void detach(RunRequested run, SandboxNetwork sandbox, boolean registrationSent) {
        if (registrationSent) {
            deregister(run, sandbox);
        }
        addresses.release(sandbox.ipv4Address());
    }

    /** Best effort: egress-service replaces a stale registration when the address is registered again. */
    private void deregister(RunRequested run, SandboxNetwork sandbox) {
        try {
            egressService.deregister(sandbox.ipv4Address());
        } catch (EgressServiceClient.RegistrationFailed e) {
            LOG.warnf("run %s: could not remove the registration of sandbox %s from egress-service: %s",
                    run.runId(), sandbox.ipv4Address(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warnf("run %s: stopped before the registration of sandbox %s was removed from egress-service",
                    run.runId(), sandbox.ipv4Address());
        }
    }

    private Refused egressNotReady(EnsureEgressNetwork.Status status) {
        // a network that breaks the egress promise stays refused until the operator changes it: the run is REJECTED
        return new Refused(notReady(status.problem()), status.refused() ? RunState.REJECTED : RunState.FAILED);
    }

    private String notReady(String why) {
        return "egress network " + egressNetwork.settings().name() + " is not ready: " + why;
    }

    /** The IPv4 addresses of the containers attached to the network, as the engine reports them. */
    private static Set<String> attachedAddresses(Network network) {
        Set<String> addresses = new HashSet<>();
        if (network.getContainers() != null) {
            for (Network.ContainerNetworkConfig endpoint : network.getContainers().values()) {
                String cidr = endpoint.getIpv4Address();
                if (cidr != null && !cidr.isBlank()) {
                    addresses.add(cidr.contains("/") ? cidr.substring(0, cidr.indexOf('/')) : cidr);
                }
            }
        }
        return addresses;
    }
}
