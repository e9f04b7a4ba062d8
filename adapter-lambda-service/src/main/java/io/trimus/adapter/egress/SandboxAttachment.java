package io.trimus.adapter.egress;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.egress.ca.EgressCaVolumes;
import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.egress.probe.ProxyProbe;
import io.trimus.adapter.egress.probe.ResolverProbe;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.adapter.egress.registry.RegistrationRefresh;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.SandboxRegistration;
import io.trimus.events.adapter.AllowedNetworks;
import io.trimus.events.adapter.DockerAdapterConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.UUID;

/**
 * A container's way onto the egress network and off it again: which network a name really selects, the resolver and
 * proxy checks (waited for up to TRIMUS_EGRESS_READY_TIMEOUT), the sandbox's pinned address claimed at egress-service
 * before the container exists, its container confirmed before start, and the deregistration and release after the
 * container is gone. The container runner calls it in that order and knows nothing of DNS.
 */
@ApplicationScoped
public class SandboxAttachment {

    private static final Logger LOG = Logger.getLogger(SandboxAttachment.class);

    private final DockerClient docker;
    private final EnsureEgressNetwork egressNetwork;
    private final SandboxAddressPool addresses;
    private final EgressServiceClient egressService;
    private final ResolverProbe resolverProbe;
    private final ProxyProbe proxyProbe;
    private final ReadyWait readyWait;
    private final RegistrationRefresh refresh;
    private final EgressCaVolumes caVolumes;
    private final AddressClaims claims;
    private final TenantNetworks tenantNetworks;

    /** The label every container of a Trimus run carries (its run id); nothing else may share a tenant's network. */
    public static final String LABEL_RUN = "trimus.run_id";


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
                             EgressServiceClient egressService, ResolverProbe resolverProbe, ProxyProbe proxyProbe,
                             TrimusConfig config) {
        this.readyWait = new ReadyWait(config.egress().readyTimeout());
        this.refresh = new RegistrationRefresh(egressService, config.egress().masksRefresh());
        this.claims = new AddressClaims(egressNetwork, addresses, egressService, proxyProbe);
        this.tenantNetworks = new TenantNetworks(docker, new AllowedNetworks(config.docker().allowedNetworks()));
        this.caVolumes = new EgressCaVolumes(docker, egressService);
        this.docker = docker;
        this.egressNetwork = egressNetwork;
        this.addresses = addresses;
        this.egressService = egressService;
        this.resolverProbe = resolverProbe;
        this.proxyProbe = proxyProbe;
    }

    /**
     * Checks the network a container is to join and, for the egress network, checks its resolver and claims the
     * sandbox's address for the run at egress-service. Docker also resolves a network by an id prefix, so a
     * harmless-looking name could select the host's network stack, or the egress network without the registration:
     * check what the name resolves to.
     *
     * <p>egress-service decides who holds an address, not this process: another adapter process on the same engine
     * proposes from the same subnet, and egress-service refuses an address another run holds (409), so the next
     * candidate is tried. Candidates skip the gateway, the addresses this process holds and those the engine reports
     * attached to the network.
     *
     * @return the sandbox's place on the egress network, its address registered for {@code run} (without container
     *         yet), or null for any other network
     * @throws Refused when the container must not join it
     */
    public SandboxNetwork attach(RunRequested run, String requested) throws Refused, InterruptedException {
        return attach(run, requested, RunPause.UNCANCELLABLE);
    }

    /**
     * As {@link #attach(RunRequested, String)}; while the resolver, the proxy or the sandbox registry does not answer
     * yet, the run waits for them up to TRIMUS_EGRESS_READY_TIMEOUT, pausing with {@code pause}.
     *
     * @throws Refused (CANCELLED) when the run is cancelled while it waits
     */
    public SandboxNetwork attach(RunRequested run, String requested, RunPause pause)
            throws Refused, InterruptedException {
        if (DockerAdapterConfig.NETWORK_NONE.equals(requested)) {
            return null;
        }
        String egressName = egressNetwork.settings().name();
        if (!requested.equals(egressName)) {
            tenantNetworks.check(requested);
            return null;
        }
        EnsureEgressNetwork.Status egress = egressNetwork.status();
        Network network = inspectEgressNetwork(egress);
        EgressNetwork checked = egress.network();
        String resolver = egressNetwork.settings().dnsDefault().orElse(checked.gateway());
        ReadyWait.Attempts attempts = readyWait.begin(pause);
        String problem;
        while ((problem = egressProblem(resolver)) != null) {
            if (attempts.firstWait()) {
                LOG.infof("run %s waits for egress-service (at most TRIMUS_EGRESS_READY_TIMEOUT): %s", run.runId(),
                        problem);
            }
            if (!attempts.again()) {
                throw new Refused(problem + "; the container was not started");
            }
        }
        return claims.claim(run, checked, AddressClaims.attachedAddresses(network), attempts);
    }

    /** What keeps a sandbox resolving and connecting through {@code resolver} from starting now, or null. */
    private String egressProblem(String resolver) {
        String problem = resolverProbe.problem(resolver);
        return problem != null ? problem : proxyProbe.problem(resolver);
    }

    /** The egress network as the engine has it now, if it is still the one checked and ready. */
    private Network inspectEgressNetwork(EnsureEgressNetwork.Status egress) throws Refused {
        String egressName = egressNetwork.settings().name();
        if (!egress.ready()) {
            throw egressNotReady(egress);
        }
        Network network;
        try {
            network = docker.inspectNetworkCmd().withNetworkId(egressName).exec();
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
        return network;
    }

    /**
     * Confirms the sandbox's container to egress-service, synchronously, before the container starts (its very first
     * DNS query must already be attributed to its company).
     *
     * @throws Refused when egress-service did not confirm; the container must not start
     */
    public void register(RunRequested run, SandboxNetwork sandbox, String containerId)
            throws Refused, InterruptedException {
        register(run, sandbox, containerId, null, null);
    }

    /**
     * As {@link #register(RunRequested, SandboxNetwork, String)}, with the sandbox's masked secrets (sealed
     * {@link io.trimus.events.secrets.SandboxMasks}, or null) and the fingerprint of the egress CA placed in it (or
     * null). A registration with masks is sent again every TRIMUS_EGRESS_MASKS_REFRESH until {@link #detach}.
     */
    public void register(RunRequested run, SandboxNetwork sandbox, String containerId, String sealedMasks,
                         String caFingerprint) throws Refused, InterruptedException {
        SandboxRegistration registration = new SandboxRegistration(run.companyId(), run.agentId(), run.runId(),
                containerId, sealedMasks, caFingerprint);
        try {
            egressService.register(sandbox.ipv4Address(), registration);
            LOG.debugf("run %s: sandbox %s registered with egress-service", run.runId(), sandbox.ipv4Address());
            if (sealedMasks != null) {
                refresh.start(sandbox.ipv4Address(), registration);
            }
        } catch (EgressServiceClient.AddressHeld | EgressServiceClient.RegistrationFailed e) {
            throw new Refused("could not register the sandbox with egress-service: " + e.getMessage()
                    + "; the container was not started");
        }
    }

    /**
     * egress-service's notes on the names the run used from its sandbox (suspected tunnelling), for the run's end;
     * none when it does not answer within {@link EgressServiceClient#NOTES_TIMEOUT}.
     */
    public List<String> notes(RunRequested run, SandboxNetwork sandbox) throws InterruptedException {
        return egressService.notes(sandbox.ipv4Address(), run.runId());
    }

    /**
     * Takes a sandbox whose container is gone off the egress network: the run's registration is removed before its
     * address can be handed out again.
     */
    public void detach(RunRequested run, SandboxNetwork sandbox) {
        refresh.stop(run.runId());
        claims.deregister(run.runId(), sandbox.ipv4Address());
        addresses.release(sandbox.ipv4Address());
    }

    /**
     * Removes the registration of a container a previous process of this service left behind, once the container is
     * removed: the address it held on the egress network, if any, is free for other runs again.
     */
    public void detachLeftover(UUID runId, Container container) {
        ContainerNetwork endpoint = container.getNetworkSettings() == null
                || container.getNetworkSettings().getNetworks() == null ? null
                : container.getNetworkSettings().getNetworks().get(egressNetwork.settings().name());
        if (endpoint == null) {
            return;
        }
        String address = endpoint.getIpamConfig() != null && endpoint.getIpamConfig().getIpv4Address() != null
                ? endpoint.getIpamConfig().getIpv4Address() : endpoint.getIpAddress();
        if (address != null && !address.isBlank()) {
            claims.deregister(runId, address);
        }
    }

    /** Where the egress CA is placed for sandboxes. */
    public EgressCaVolumes egressCa() {
        return caVolumes;
    }

    @PreDestroy
    void stopRefreshing() {
        refresh.shutdown();
    }

    private Refused egressNotReady(EnsureEgressNetwork.Status status) {
        // a network that breaks the egress promise stays refused until the operator changes it: the run is REJECTED
        return new Refused(notReady(status.problem()), status.refused() ? RunState.REJECTED : RunState.FAILED);
    }

    private String notReady(String why) {
        return "egress network " + egressNetwork.settings().name() + " is not ready: " + why;
    }
}
