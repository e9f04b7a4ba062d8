package io.trimus.egress.proxy.destination;

import io.trimus.egress.dns.Upstream;

/** The destination wiring tests build without the service's configuration. */
public final class TestDestinations {
    private TestDestinations() {
    }

    /** The strictest policy: public addresses only, nothing allowed privately; the host's addresses as they are now. */
    public static DestinationAddressPolicy publicOnly() {
        return new DestinationAddressPolicy(AllowedPrivateRanges.NONE, HostAddresses.ofThisHost());
    }

    /** A resolver that asks the upstream for every connection (no answer cache). */
    public static DestinationResolver uncached(Upstream upstream, DestinationAddressPolicy addresses) {
        return new DestinationResolver(upstream, addresses, null);
    }
}
