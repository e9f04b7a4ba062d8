package io.trimus.egress.proxy.destination;

import com.google.common.net.InetAddresses;

import java.net.Inet6Address;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * The special-purpose address ranges (IANA's registries, as smokescreen reads them) and the IPv6 forms that carry an
 * IPv4 address. Pure: it classifies bytes and never resolves or dials anything.
 */
final class AddressClasses {
    static final String UNSPECIFIED = "unspecified";
    static final String LOOPBACK = "loopback";
    static final String HOST = "host";
    static final String PRIVATE = "private";
    static final String CGNAT = "cgnat";
    static final String LINK_LOCAL = "link-local";
    static final String METADATA = "metadata";
    static final String SITE_LOCAL = "site-local";
    static final String MULTICAST = "multicast";
    static final String BROADCAST = "broadcast";
    static final String BENCHMARKING = "benchmarking";
    static final String DOCUMENTATION = "documentation";
    static final String RESERVED = "reserved";

    static final Cidr IPV4_LOOPBACK = Cidr.parse("127.0.0.0/8");
    static final Cidr IPV6_LOOPBACK = Cidr.parse("::1/128");

    /** First match wins, so the narrow ranges come before the wide ones they lie in. */
    private static final List<Range> IPV4 = List.of(
            new Range("0.0.0.0/8", UNSPECIFIED), // "this network": Linux dials 0.0.0.0 as the host itself
            new Range("127.0.0.0/8", LOOPBACK),
            new Range("10.0.0.0/8", PRIVATE),
            new Range("172.16.0.0/12", PRIVATE),
            new Range("192.168.0.0/16", PRIVATE),
            new Range("100.64.0.0/10", CGNAT),
            new Range("169.254.169.254/32", METADATA),
            new Range("169.254.0.0/16", LINK_LOCAL),
            new Range("192.0.0.0/24", RESERVED), // IETF protocol assignments
            new Range("192.0.2.0/24", DOCUMENTATION),
            new Range("192.88.99.0/24", RESERVED), // the deprecated 6to4 relay anycast
            new Range("198.18.0.0/15", BENCHMARKING),
            new Range("198.51.100.0/24", DOCUMENTATION),
            new Range("203.0.113.0/24", DOCUMENTATION),
            new Range("224.0.0.0/4", MULTICAST),
            new Range("255.255.255.255/32", BROADCAST),
            new Range("240.0.0.0/4", RESERVED));

    /** IPv6 ranges of addresses that carry no IPv4 one; {@link #embeddedIpv4} is asked first. */
    private static final List<Range> IPV6 = List.of(
            new Range("::/128", UNSPECIFIED),
            new Range("::1/128", LOOPBACK),
            new Range("fd00:ec2::254/128", METADATA), // the EC2 metadata service over IPv6, inside fc00::/7
            new Range("fc00::/7", PRIVATE), // unique local addresses
            new Range("fe80::/10", LINK_LOCAL),
            new Range("fec0::/10", SITE_LOCAL),
            new Range("ff00::/8", MULTICAST),
            new Range("2001:2::/48", BENCHMARKING),
            new Range("2001:db8::/32", DOCUMENTATION),
            new Range("3fff::/20", DOCUMENTATION),
            new Range("2001:10::/28", RESERVED), // ORCHID
            new Range("2001:20::/28", RESERVED), // ORCHIDv2
            new Range("100::/64", RESERVED), // discard-only
            new Range("64:ff9b:1::/48", RESERVED)); // local-use NAT64: where the IPv4 address sits is a local choice
    /** IANA allocates global unicast from here only; anything else left after the table is reserved. */
    private static final Cidr GLOBAL_UNICAST = Cidr.parse("2000::/3");

    private static final Cidr IPV4_MAPPED = Cidr.of(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff,
            0, 0, 0, 0}, 96); // no text for it: the JDK and Guava read ::ffff:0:0 as IPv4
    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");

    private AddressClasses() {
    }

    /**
     * The IPv4 address an IPv6 one reaches: IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96, but not :: and
     * ::1), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, the client address: packets go to it).
     *
     * @param address 4 or 16 bytes
     * @return the embedded IPv4 address as 4 bytes, or null when there is none
     */
    static byte[] embeddedIpv4(byte[] address) {
        if (address.length != 16) {
            return null;
        }
        if (IPV4_MAPPED.contains(address) || NAT64.contains(address)) {
            return Arrays.copyOfRange(address, 12, 16);
        }
        Inet6Address ipv6 = ipv6(address);
        // compat (minus :: and ::1), 6to4 and Teredo, the Teredo client's bits inverted as RFC 4380 stores them
        return InetAddresses.hasEmbeddedIPv4ClientAddress(ipv6)
                ? InetAddresses.getEmbeddedIPv4ClientAddress(ipv6).getAddress()
                : null;
    }

    /**
     * The class of a special-purpose address, for an IPv6 address that {@link #embeddedIpv4} did not unwrap.
     *
     * @return null for a public (global unicast) address, else the class, e.g. {@code private}
     */
    static String classOf(byte[] address) {
        for (Range range : address.length == 4 ? IPV4 : IPV6) {
            if (range.cidr.contains(address)) {
                return range.name;
            }
        }
        return address.length == 16 && !GLOBAL_UNICAST.contains(address) ? RESERVED : null;
    }

    /** Whether the address is loopback: 127.0.0.0/8 or ::1. */
    static boolean isLoopback(byte[] address) {
        return IPV4_LOOPBACK.contains(address) || IPV6_LOOPBACK.contains(address);
    }

    private static Inet6Address ipv6(byte[] address) {
        try {
            // not InetAddress.getByAddress: it would turn an IPv4-mapped address into an Inet4Address
            return Inet6Address.getByAddress(null, address, -1);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an IPv6 address has 16 bytes, not " + address.length, e);
        }
    }

    private record Range(Cidr cidr, String name) {
        Range(String cidr, String name) {
            this(Cidr.parse(cidr), name);
        }
    }
}
