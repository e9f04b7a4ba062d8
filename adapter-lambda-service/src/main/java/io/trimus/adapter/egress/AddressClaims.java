package io.trimus.adapter.egress;

import com.github.dockerjava.api.model.Network;
import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.egress.probe.ProxyProbe;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.events.RunRequested;
import io.trimus.events.SandboxRegistration;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * A sandbox's address on the egress network, claimed for its run at egress-service before the container exists and
 * given back after it is gone. egress-service decides who holds an address, not this process: another adapter process
 * on the same engine proposes from the same subnet, and egress-service refuses an address another run holds (409), so
 * the next candidate is tried.
 */
final class AddressClaims {

    private static final Logger LOG = Logger.getLogger(AddressClaims.class);

    private final EnsureEgressNetwork egressNetwork;
    private final SandboxAddressPool addresses;
    private final EgressServiceClient egressService;
    private final ProxyProbe proxyProbe;

    AddressClaims(EnsureEgressNetwork egressNetwork, SandboxAddressPool addresses, EgressServiceClient egressService,
                  ProxyProbe proxyProbe) {
        this.egressNetwork = egressNetwork;
        this.addresses = addresses;
        this.egressService = egressService;
        this.proxyProbe = proxyProbe;
    }

    /** Claims the first candidate address egress-service gives the run. */
    SandboxNetwork claim(RunRequested run, EgressNetwork network, Set<String> unavailable,
                                 ReadyWait.Attempts attempts) throws SandboxAttachment.Refused, InterruptedException {
        SandboxRegistration claim = new SandboxRegistration(run.companyId(), run.agentId(), run.runId(), null);
        while (true) {
            String address = addresses.reserve(network, unavailable).orElseThrow(() -> new SandboxAttachment.Refused(
                    "no free sandbox address left on egress network " + network.name() + " (" + network.subnet()
                            + ")"));
            boolean claimed = false;
            String waitingFor = null;
            try {
                egressService.register(address, claim);
                claimed = true;
                return SandboxNetwork.on(network, address, egressNetwork.settings(), proxyProbe.port());
            } catch (EgressServiceClient.AddressHeld held) {
                LOG.debugf("run %s: sandbox address %s is held by another run; trying the next", run.runId(), address);
                unavailable.add(address);
            } catch (EgressServiceClient.RegistrationFailed e) {
                String problem = "could not register the sandbox with egress-service: " + e.getMessage()
                        + "; the container was not started";
                if (!e.notStored()) {
                    // egress-service may have stored the claim and lost only its answer: give it back
                    deregister(run.runId(), address);
                    throw new SandboxAttachment.Refused(problem);
                }
                waitingFor = problem;
            } finally {
                if (!claimed) {
                    addresses.release(address);
                }
            }
            if (waitingFor != null) {
                if (attempts.firstWait()) {
                    LOG.infof("run %s waits for egress-service (at most TRIMUS_EGRESS_READY_TIMEOUT): %s",
                            run.runId(), waitingFor);
                }
                if (!attempts.again()) {
                    throw new SandboxAttachment.Refused(waitingFor);
                }
            }
        }
    }


    /**
     * Best effort: a registration left behind holds its address until egress-service lets another run take it over
     * (TRIMUS_EGRESS_SANDBOXES_REGISTRATION_MAX_AGE there); meanwhile the address is skipped.
     */
    void deregister(UUID runId, String address) {
        try {
            egressService.deregister(address, runId);
        } catch (EgressServiceClient.RegistrationFailed | RuntimeException e) {
            LOG.warnf("run %s: could not remove the registration of sandbox %s from egress-service: %s",
                    runId, address, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warnf("run %s: stopped before the registration of sandbox %s was removed from egress-service",
                    runId, address);
        }
    }


    /** The IPv4 addresses of the containers attached to the network, as the engine reports them. */
    static Set<String> attachedAddresses(Network network) {
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
