package io.trimus.commons.net;

import io.trimus.commons.net.Classification.Embedding;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * The special-purpose address table of Trimus (IANA's registries, as Stripe's smokescreen reads them), once for every
 * guard: the egress proxy's destinations, lambda endpoints and A2A peers. An IPv6 address that carries an IPv4 one
 * (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4, Teredo) is classed as the IPv4 address it reaches, so a
 * special IPv4 address cannot hide inside an IPv6 one. Pure: it classifies bytes and never resolves or dials.
 *
 * <p>Where the egress proxy's and the adapter's tables used to disagree, the stricter answer is kept: an
 * IPv4-compatible or Teredo address is refused even when the IPv4 address it carries is public, and the local-use
 * NAT64 range 64:ff9b:1::/48 is reserved as a whole (where its IPv4 address sits is a local choice).
 */
public final class SpecialAddresses {
    /** 127.0.0.0/8. */
    public static final Cidr IPV4_LOOPBACK = Cidr.parse("127.0.0.0/8");
    /** ::1/128. */
    public static final Cidr IPV6_LOOPBACK = Cidr.parse("::1/128");

    private static final String LINK_LOCAL_V4 = "a link-local address (where cloud metadata services answer)";
    private static final String DOCUMENTATION = "a documentation address";
    private static final String PRIVATE = "a private address";

    /** First match wins, so the narrow ranges come before the wide ones they lie in. */
    private static final List<Range> IPV4 = List.of(
            new Range("0.0.0.0/8", AddressClass.UNSPECIFIED, "an unspecified (\"this network\") address"),
            new Range("127.0.0.0/8", AddressClass.LOOPBACK, "a loopback address"),
            new Range("10.0.0.0/8", AddressClass.PRIVATE, PRIVATE),
            new Range("172.16.0.0/12", AddressClass.PRIVATE, PRIVATE),
            new Range("192.168.0.0/16", AddressClass.PRIVATE, PRIVATE),
            new Range("100.64.0.0/10", AddressClass.CGNAT, "a carrier-grade NAT (shared) address"),
            new Range("169.254.169.254/32", AddressClass.METADATA, LINK_LOCAL_V4),
            new Range("169.254.0.0/16", AddressClass.LINK_LOCAL, LINK_LOCAL_V4),
            new Range("192.0.0.0/24", AddressClass.RESERVED, "an IETF protocol assignment address"),
            new Range("192.0.2.0/24", AddressClass.DOCUMENTATION, DOCUMENTATION),
            new Range("192.88.99.0/24", AddressClass.RESERVED, "a 6to4 relay anycast address (deprecated)"),
            new Range("198.18.0.0/15", AddressClass.BENCHMARKING, "a benchmarking address"),
            new Range("198.51.100.0/24", AddressClass.DOCUMENTATION, DOCUMENTATION),
            new Range("203.0.113.0/24", AddressClass.DOCUMENTATION, DOCUMENTATION),
            new Range("224.0.0.0/4", AddressClass.MULTICAST, "a multicast address"),
            new Range("255.255.255.255/32", AddressClass.BROADCAST, "the broadcast address"),
            new Range("240.0.0.0/4", AddressClass.RESERVED, "a reserved address"));

    /** IPv6 ranges of addresses that carry no IPv4 one; {@link #embedded} is asked first. */
    private static final List<Range> IPV6 = List.of(
            new Range("::/128", AddressClass.UNSPECIFIED, "the unspecified address"),
            new Range("::1/128", AddressClass.LOOPBACK, "a loopback address"),
            new Range("fd00:ec2::254/128", AddressClass.METADATA,
                    "a unique local (private) address: the EC2 metadata service over IPv6"),
            new Range("fc00::/7", AddressClass.PRIVATE, "a unique local (private) address"),
            new Range("fe80::/10", AddressClass.LINK_LOCAL, "a link-local address"),
            new Range("fec0::/10", AddressClass.SITE_LOCAL, "a site-local address (deprecated)"),
            new Range("ff00::/8", AddressClass.MULTICAST, "a multicast address"),
            new Range("2001:2::/48", AddressClass.BENCHMARKING, "a benchmarking address"),
            new Range("2001:db8::/32", AddressClass.DOCUMENTATION, DOCUMENTATION),
            new Range("3fff::/20", AddressClass.DOCUMENTATION, DOCUMENTATION),
            new Range("2001:10::/28", AddressClass.RESERVED, "an ORCHID address"),
            new Range("2001:20::/28", AddressClass.RESERVED, "an ORCHID address"),
            new Range("100::/64", AddressClass.RESERVED, "a discard-only address"),
            // where the IPv4 address sits is a local choice, so no position is trusted: reserved whatever it carries
            new Range("64:ff9b:1::/48", AddressClass.RESERVED, "a local-use NAT64 address"));
    /** IANA allocates global unicast from here only; anything else left after the table is reserved. */
    private static final Cidr GLOBAL_UNICAST = Cidr.parse("2000::/3");

    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");
    private static final Cidr IPV4_COMPATIBLE = Cidr.parse("::/96");
    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");
    private static final Cidr TEREDO = Cidr.parse("2001::/32");

    private SpecialAddresses() {
    }

    /** The same for an {@link InetAddress}; an IPv4-mapped one the JDK made an Inet4Address is classed alike. */
    public static Classification classify(InetAddress address) {
        return classify(address.getAddress());
    }

    /**
     * The class of an address, an IPv6 form that carries an IPv4 address classed as that IPv4 address.
     *
     * @param address 4 or 16 bytes
     * @return the classification; {@link Classification#isPublic()} when no class forbids dialling it
     */
    public static Classification classify(byte[] address) {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + address.length);
        }
        Embedding embedding = embedding(address);
        if (embedding == null) {
            Range range = lookup(address);
            if (range == null && address.length == 16 && !GLOBAL_UNICAST.contains(address)) {
                return new Classification(address, null, address, AddressClass.RESERVED,
                        "outside the global unicast range 2000::/3");
            }
            return range == null ? new Classification(address, null, address, null, null)
                    : new Classification(address, null, address, range.addressClass, range.description);
        }
        byte[] ipv4 = embedded(address, embedding);
        Range range = lookup(ipv4);
        if (range != null) {
            return new Classification(address, embedding, ipv4, range.addressClass, range.description);
        }
        return new Classification(address, embedding, ipv4, embedding.ownClass(), embedding.ownDescription());
    }

    /**
     * The IPv4 address an IPv6 one reaches: IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96, but not :: and
     * ::1), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, the client address: packets go to it).
     *
     * @param address 4 or 16 bytes
     * @return the embedded IPv4 address as 4 bytes, or null when there is none
     */
    public static byte[] embeddedIpv4(byte[] address) {
        Embedding embedding = address.length == 16 ? embedding(address) : null;
        return embedding == null ? null : embedded(address, embedding);
    }

    /** Whether the address is loopback: 127.0.0.0/8 or ::1. */
    public static boolean isLoopback(byte[] address) {
        return IPV4_LOOPBACK.contains(address) || IPV6_LOOPBACK.contains(address);
    }

    private static Embedding embedding(byte[] address) {
        if (address.length != 16) {
            return null;
        }
        if (IpAddresses.isIpv4Mapped(address)) {
            return Embedding.IPV4_MAPPED;
        }
        if (NAT64.contains(address)) {
            return Embedding.NAT64;
        }
        if (IPV4_COMPATIBLE.contains(address)) {
            // :: and ::1 are the unspecified and loopback addresses, not 0.0.0.0 and 0.0.0.1
            boolean special = address[12] == 0 && address[13] == 0 && address[14] == 0
                    && (address[15] == 0 || address[15] == 1);
            return special ? null : Embedding.IPV4_COMPATIBLE;
        }
        if (SIX_TO_FOUR.contains(address)) {
            return Embedding.SIX_TO_FOUR;
        }
        return TEREDO.contains(address) ? Embedding.TEREDO : null;
    }

    private static byte[] embedded(byte[] address, Embedding embedding) {
        return switch (embedding) {
            case IPV4_MAPPED, NAT64, IPV4_COMPATIBLE -> Arrays.copyOfRange(address, 12, 16);
            case SIX_TO_FOUR -> Arrays.copyOfRange(address, 2, 6);
            case TEREDO -> {
                // RFC 4380 stores the client's address with every bit inverted
                byte[] client = Arrays.copyOfRange(address, 12, 16);
                for (int i = 0; i < 4; i++) {
                    client[i] = (byte) ~client[i];
                }
                yield client;
            }
        };
    }

    private static Range lookup(byte[] address) {
        for (Range range : address.length == 4 ? IPV4 : IPV6) {
            if (range.cidr.contains(address)) {
                return range;
            }
        }
        return null;
    }

    private record Range(Cidr cidr, AddressClass addressClass, String description) {
        Range(String cidr, AddressClass addressClass, String description) {
            this(Cidr.parse(cidr), addressClass, description);
        }
    }
}
