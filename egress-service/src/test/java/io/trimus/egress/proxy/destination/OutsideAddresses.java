package io.trimus.egress.proxy.destination;

import java.net.InetAddress;
import java.util.Set;

/** The production address policy, except that the tests' loopback "outside" servers count as public. */
public final class OutsideAddresses extends DestinationAddressPolicy {
    private final Set<String> outside;

    public OutsideAddresses(String... outside) {
        super(AllowedPrivateRanges.NONE, HostAddresses.ofThisHost());
        this.outside = Set.of(outside);
    }

    @Override
    public String refusal(InetAddress address) {
        return outside.contains(address.getHostAddress()) ? null : super.refusal(address);
    }
}
