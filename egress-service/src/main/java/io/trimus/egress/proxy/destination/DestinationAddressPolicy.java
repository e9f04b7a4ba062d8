package io.trimus.egress.proxy.destination;

import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.trimus.commons.net.AddressClass;
import io.trimus.commons.net.Classification;
import io.trimus.commons.net.SpecialAddresses;
import io.trimus.egress.config.TrimusConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.util.List;

/**
 * Which resolved addresses the egress proxy may dial on a sandbox's behalf: public addresses only, so an allow-listed
 * name that resolves to the host, the metadata endpoint or a private network cannot carry a sandbox there. The proxy
 * checks every address a name resolves to and dials exactly the one that passed.
 *
 * <p>The address classes are Trimus's one table ({@link SpecialAddresses}, shared with the adapter's lambda and A2A
 * guards): an IPv6 address that embeds an IPv4 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is judged by
 * the IPv4 address it reaches; loopback, the host's own addresses, private, CGNAT, link-local (with the metadata
 * endpoint), multicast, broadcast, benchmarking, documentation, reserved, IPv4-compatible and Teredo ranges are
 * refused unless TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE covers them ({@link AllowedPrivateRanges} says how). Built at
 * start, so a wrong entry in that list stops the service with a sentence naming it.
 */
@Startup
@Singleton
public class DestinationAddressPolicy {
    private static final Logger LOG = Logger.getLogger(DestinationAddressPolicy.class);
    /** The refusal of one of the host's own addresses, whatever its class. */
    static final String HOST = "host";

    private final AllowedPrivateRanges allowed;
    private volatile HostAddresses host;

    @Inject
    DestinationAddressPolicy(TrimusConfig config) {
        this(AllowedPrivateRanges.parse(config.egress().proxy().allowPrivate().orElse(List.of())),
                HostAddresses.ofThisHost());
        LOG.infof("proxy destinations: public addresses; privately %s (TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE); the host's"
                + " %d own addresses refused", allowed, host.size());
    }

    DestinationAddressPolicy(AllowedPrivateRanges allowed, HostAddresses host) {
        this.allowed = allowed;
        this.host = host;
    }

    /**
     * Why the proxy must not dial {@code address}.
     *
     * @return null when it may, else the address class that forbids it, e.g. {@code loopback}; for an IPv6 address
     *         that embeds an IPv4 one, the class of that IPv4 address
     */
    public String refusal(InetAddress address) {
        byte[] raw = address.getAddress();
        Classification classified = SpecialAddresses.classify(raw);
        byte[] reached = classified.reached();
        AddressClass type = classified.addressClass();
        if (type != null && !type.allowable()) {
            return type.label();
        }
        if (SpecialAddresses.isLoopback(reached)) {
            return allowed.coversLoopback(reached) ? null : AddressClass.LOOPBACK.label();
        }
        HostAddresses ours = host;
        if (ours.contains(reached) || ours.contains(raw)) {
            return allowed.namesExactly(reached) ? null : HOST;
        }
        if (type == null || allowed.covers(reached)) {
            return null;
        }
        return type.label();
    }

    /**
     * Interfaces come and go (Docker creates a bridge per network), so the host's addresses are read again every 10 s
     * on a worker thread. Until then a new interface's address is judged by its class alone: refused as private unless
     * a TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE range covers it.
     */
    @Scheduled(every = "10s", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refreshHostAddresses() {
        try {
            host = HostAddresses.ofThisHost();
        } catch (IllegalStateException e) {
            LOG.warnf("keeping the previous %d host addresses: %s", host.size(), e.getMessage());
        }
    }
}
