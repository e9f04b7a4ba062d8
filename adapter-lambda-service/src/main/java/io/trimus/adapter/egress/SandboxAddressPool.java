package io.trimus.adapter.egress;

import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.commons.net.Cidr;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which sandbox address this process proposes next for a container on the egress network. The address is pinned
 * before the container exists, so egress-service can attribute the sandbox's very first DNS query to its company.
 *
 * <p>Never proposed: the network and broadcast addresses, the gateway (the host, where the resolver listens), an
 * address this process holds for another run, and an address the caller knows to be unavailable (the engine reports it
 * in use, or egress-service refused it). Addresses are taken round-robin, so a just-released address (whose
 * deregistration may have failed) is the last to come back. This pool only proposes: another adapter process on the
 * same engine proposes from the same subnet, and egress-service, which refuses an address another run holds, decides
 * ({@link SandboxAttachment}).
 */
@ApplicationScoped
public class SandboxAddressPool {

    private final Set<Long> held = new HashSet<>();
    private long next;

    /**
     * Reserves a free address on {@code network} until {@link #release(String)}.
     *
     * @param inUse addresses not to propose: attached to the network right now, or refused by egress-service
     * @return the address, or empty when the subnet is full
     */
    public synchronized Optional<String> reserve(EgressNetwork network, Set<String> inUse) {
        Cidr subnet = network.subnet();
        long gateway = Cidr.address(network.gateway());
        long size = subnet.hostCount();
        for (long tried = 0; tried < size; tried++) {
            long index = Math.floorMod(next + tried, size);
            long candidate = subnet.host(index);
            String text = Cidr.text(candidate);
            if (candidate != gateway && !held.contains(candidate) && !inUse.contains(text)) {
                held.add(candidate);
                next = index + 1;
                return Optional.of(text);
            }
        }
        return Optional.empty();
    }

    /** Gives an address back once its container is gone and its registration removed. */
    public synchronized void release(String address) {
        held.remove(Cidr.address(address));
    }

    /** Addresses reserved now, for tests and diagnostics. */
    public synchronized Set<String> reserved() {
        Set<String> out = new HashSet<>();
        held.forEach(a -> out.add(Cidr.text(a)));
        return out;
    }
}
