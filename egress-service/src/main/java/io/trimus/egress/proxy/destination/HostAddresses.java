package io.trimus.egress.proxy.destination;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The addresses of this host's own network interfaces, up or down: a name that resolves to one of them would carry a
 * sandbox to the host itself (egress-service, the proxy's own listeners, whatever else listens there), whatever range
 * it is in. Compared as bytes, so an IPv6 zone id does not matter.
 */
final class HostAddresses {
    private static final HexFormat HEX = HexFormat.of();

    private final Set<String> addresses;

    private HostAddresses(Set<String> addresses) {
        this.addresses = addresses;
    }

    /** These addresses. */
    static HostAddresses of(Collection<InetAddress> addresses) {
        return new HostAddresses(addresses.stream().map(a -> HEX.formatHex(a.getAddress()))
                .collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * The addresses of every interface of this host now. Blocking (it asks the kernel), so it runs at start and on a
     * worker thread, never on the event loop.
     *
     * @throws IllegalStateException when the interfaces cannot be listed: the proxy must not start without knowing them
     */
    static HostAddresses ofThisHost() {
        List<InetAddress> found = new ArrayList<>();
        try {
            Enumeration<NetworkInterface> nics = NetworkInterface.getNetworkInterfaces();
            while (nics != null && nics.hasMoreElements()) {
                found.addAll(Collections.list(nics.nextElement().getInetAddresses()));
            }
        } catch (SocketException e) {
            throw new IllegalStateException("the host's network interfaces cannot be listed: " + e.getMessage(), e);
        }
        return of(found);
    }

    /** Whether the address (4 or 16 bytes) is one of this host's. */
    boolean contains(byte[] address) {
        return addresses.contains(HEX.formatHex(address));
    }

    int size() {
        return addresses.size();
    }
}
