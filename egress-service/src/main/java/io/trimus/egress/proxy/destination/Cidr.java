package io.trimus.egress.proxy.destination;

import com.google.common.net.InetAddresses;
import io.trimus.commons.net.AddressPrefix;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An address range in CIDR notation, IPv4 or IPv6, compared as bytes: the address classes of the proxy's
 * destinations and the ranges of TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE are this type.
 */
public final class Cidr {
    /** The network address, 4 or 16 bytes, host bits zero. */
    private final byte[] network;
    private final int prefix;

    private Cidr(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /**
     * Parses {@code 10.20.0.0/16} or {@code fd00:1::/64}; a bare address means that address alone. Literals only (no
     * name is ever resolved), no zone ids, and the address must be the network address itself, so a typo such as
     * {@code 10.1.0.0/8} is reported rather than widened.
     *
     * @throws IllegalArgumentException with a sentence saying what is wrong with {@code text}
     */
    public static Cidr parse(String text) {
        String cidr = text == null ? "" : text.strip();
        int slash = cidr.indexOf('/');
        String host = slash < 0 ? cidr : cidr.substring(0, slash);
        if (host.indexOf('%') >= 0 || !InetAddresses.isInetAddress(host)) {
            throw new IllegalArgumentException("'" + cidr + "' is not an address range such as 10.20.0.0/16 or"
                    + " fd00:1::/64");
        }
        byte[] bytes = InetAddresses.forString(host).getAddress();
        if (host.indexOf(':') >= 0 && bytes.length == 4) {
            // the JDK reads ::ffff:a.b.c.d as IPv4; destinations are matched after unwrapping, so say so
            throw new IllegalArgumentException("'" + cidr + "' is an IPv4-mapped IPv6 range; write its IPv4 form"
                    + " (an IPv6 address that embeds an IPv4 one is matched by that IPv4 address)");
        }
        int bits = bytes.length * 8;
        int length;
        try {
            length = slash < 0 ? bits : Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + cidr + "' has no prefix length after the /");
        }
        if (length < 0 || length > bits) {
            throw new IllegalArgumentException("'" + cidr + "' has a prefix length outside 0.." + bits);
        }
        Cidr range = new Cidr(masked(bytes, length), length);
        if (!Arrays.equals(range.network, bytes)) {
            throw new IllegalArgumentException("'" + cidr + "' has host bits set after /" + length
                    + "; the range is " + range);
        }
        return range;
    }

    /** The range of {@code network} (4 or 16 bytes, host bits zero) and {@code prefix}; for forms text cannot say. */
    static Cidr of(byte[] network, int prefix) {
        Cidr range = new Cidr(masked(network, prefix), prefix);
        if (prefix < 0 || prefix > network.length * 8 || !Arrays.equals(range.network, network)) {
            throw new IllegalArgumentException("not a network address with a prefix length of " + prefix);
        }
        return range;
    }

    /** Whether the address (4 or 16 bytes) lies in this range; an address of the other family never does. */
    public boolean contains(byte[] address) {
        return AddressPrefix.matches(network, prefix, address);
    }

    /** Whether every address of this range lies in {@code other}. */
    public boolean isWithin(Cidr other) {
        return prefix >= other.prefix && other.contains(network);
    }

    /** Whether this range is a single address (/32, /128). */
    public boolean isSingleAddress() {
        return prefix == network.length * 8;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr that && prefix == that.prefix && Arrays.equals(network, that.network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        if (network.length == 16) {
            try {
                // not InetAddress.getByAddress, which prints an IPv4-mapped network as IPv4
                return InetAddresses.toAddrString(Inet6Address.getByAddress(null, network, -1)) + "/" + prefix;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return InetAddresses.toAddrString(address(network)) + "/" + prefix;
    }

    private static byte[] masked(byte[] bytes, int length) {
        byte[] out = bytes.clone();
        for (int bit = length; bit < out.length * 8; bit++) {
            out[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return out;
    }

    static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + bytes.length, e);
        }
    }
}
