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
        return Optional.ofNullable(parse(literal)).map(InetAddress::getHostAddress);
    }

    /**
     * The address an IPv4 or IPv6 literal names (never a lookup; an IPv4-mapped IPv6 literal is the IPv4 address),
     * or null for anything else.
     */
    public static InetAddress parse(String literal) {
        if (literal == null || literal.isEmpty() || literal.length() > 45) {
            return null;
        }
        byte[] bytes = Address.toByteArray(literal, Address.IPv4);
        if (bytes == null) {
            bytes = Address.toByteArray(literal, Address.IPv6);
        }
        if (bytes == null) {
            return null;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            return null; // only for a wrong byte count, which Address never returns
        }
    }
}
