package io.trimus.egress.sandbox;

import org.xbill.DNS.Address;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The one textual form of a sandbox address, so a registration and the source address of a packet name the same
 * key: IPv4 as a dotted quad, IPv6 as Java prints it (an IPv4-mapped IPv6 address becomes its IPv4 form). Parses
 * literals only, never resolves a name.
 */
public final class IpAddresses {
    private IpAddresses() {
    }

    /** The canonical form of an IPv4 or IPv6 literal; empty for anything else (host names, zone ids, ranges). */
    public static Optional<String> canonical(String literal) {
        if (literal == null || literal.isEmpty() || literal.length() > 45) {
            return Optional.empty();
        }
        byte[] bytes = Address.toByteArray(literal, Address.IPv4);
        if (bytes == null) {
            bytes = Address.toByteArray(literal, Address.IPv6);
        }
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(bytes).getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty(); // only for a wrong byte count, which Address never returns
        }
    }
}
