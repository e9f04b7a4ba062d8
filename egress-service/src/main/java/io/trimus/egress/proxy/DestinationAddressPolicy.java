package io.trimus.egress.proxy;

import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;

/**
 * Which resolved addresses the egress proxy may dial on a sandbox's behalf: public addresses only, so an allow-listed
 * name that resolves to the host, the metadata endpoint or a private network cannot carry a sandbox there. The proxy
 * checks every address a name resolves to and dials exactly the one that passed.
 */
@ApplicationScoped
public class DestinationAddressPolicy {

    /**
     * Why the proxy must not dial {@code address}.
     *
     * @return null when it may, else the address class that forbids it, e.g. {@code loopback}
     */
    public String refusal(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "unspecified";
        }
        if (address.isLoopbackAddress()) {
            return "loopback";
        }
        if (address.isLinkLocalAddress()) {
            return "link-local";
        }
        if (address.isSiteLocalAddress()) {
            return "private";
        }
        if (address.isMulticastAddress()) {
            return "multicast";
        }
        return null;
    }
}
