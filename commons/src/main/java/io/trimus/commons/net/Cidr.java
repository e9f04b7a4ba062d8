package io.trimus.commons.net;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An address range in CIDR notation, IPv4 or IPv6, compared as bytes: the one CIDR type of Trimus. The special-address
 * table ({@link SpecialAddresses}), the allow-private knobs of the egress proxy, lambda endpoints and A2A peers, and
 * the adapter's egress subnet with its IPv4 host arithmetic (addresses as unsigned 32-bit numbers) are all this type.
 */
public final class Cidr {
    private static final Pattern IPV4_CIDR =
            Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");
    private static final Pattern IPV4_ADDRESS = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    /** The network address, 4 or 16 bytes, host bits zero. */
    private final byte[] network;
    private final int prefix;

    private Cidr(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    /**
     * Parses {@code 10.20.0.0/16} or {@code fd00:1::/64}; a bare address means that address alone. Strict: literals
     * only (no name is ever resolved), decimal IPv4 octets without leading zeros, no zone ids, no IPv4-mapped IPv6
     * ranges (an IPv6 address that embeds an IPv4 one is matched by that IPv4 address, so write the IPv4 form), and
     * the address must be the network address itself, so a typo such as {@code 10.1.0.0/8} is reported rather than
     * widened.
     *
     * @throws IllegalArgumentException with a sentence saying what is wrong with {@code text}
     */
    public static Cidr parse(String text) {
        String cidr = text == null ? "" : text.strip();
        int slash = cidr.indexOf('/');
        String host = slash < 0 ? cidr : cidr.substring(0, slash);
        byte[] bytes = IpAddresses.strict(host);
        if (bytes == null) {
            String hint = host.matches("[\\d.]*\\b0\\d[\\d.]*")
                    ? " (write IPv4 octets without leading zeros: some readers take 010 as octal)" : "";
            throw new IllegalArgumentException("'" + cidr + "' is not an address range such as 10.20.0.0/16 or"
                    + " fd00:1::/64" + hint);
        }
        if (bytes.length == 16 && IpAddresses.isIpv4Mapped(bytes)) {
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

    /**
     * The range of {@code network} (4 or 16 bytes, host bits zero) and {@code prefix}; for forms text cannot say, such
     * as the IPv4-mapped ::ffff:0:0/96 that {@link #parse} refuses.
     */
    public static Cidr of(byte[] network, int prefix) {
        if (network.length != 4 && network.length != 16) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + network.length);
        }
        if (prefix < 0 || prefix > network.length * 8) {
            throw new IllegalArgumentException("prefix length must be 0 to " + network.length * 8 + ", got " + prefix);
        }
        Cidr range = new Cidr(masked(network, prefix), prefix);
        if (!Arrays.equals(range.network, network)) {
            throw new IllegalArgumentException("not a network address with a prefix length of " + prefix);
        }
        return range;
    }

    /**
     * The IPv4 subnet {@code network/prefix}.
     *
     * @param network the network address as an unsigned 32-bit number; its host bits must be zero
     */
    public static Cidr ipv4(long network, int prefix) {
        if (prefix < 0 || prefix > 32) {
            throw new IllegalArgumentException("prefix length must be 0 to 32, got " + prefix);
        }
        if ((network & ~mask(prefix) & 0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException(text(network) + "/" + prefix + " has host bits set; the subnet is "
                    + text(network & mask(prefix)) + "/" + prefix);
        }
        return new Cidr(bytes(network), prefix);
    }

    /** Parses an IPv4 subnet {@code a.b.c.d/n}; the address must be the network address itself. */
    public static Cidr ipv4Subnet(String cidr) {
        Matcher m = cidr == null ? null : IPV4_CIDR.matcher(cidr.trim());
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("'" + cidr + "' is not an IPv4 subnet such as 172.30.0.0/24");
        }
        return ipv4(octets(m, cidr), Integer.parseInt(m.group(5)));
    }

    /** Parses a dotted IPv4 address into an unsigned 32-bit number. */
    public static long address(String text) {
        Matcher m = text == null ? null : IPV4_ADDRESS.matcher(text.trim());
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 address such as 172.30.0.1");
        }
        return octets(m, text);
    }

    /** Whether {@code text} is a dotted IPv4 address. */
    public static boolean isAddress(String text) {
        try {
            address(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The dotted form of an unsigned 32-bit address. */
    public static String text(long address) {
        return ((address >> 24) & 0xFF) + "." + ((address >> 16) & 0xFF) + "." + ((address >> 8) & 0xFF) + "."
                + (address & 0xFF);
    }

    /** The prefix length. */
    public int prefix() {
        return prefix;
    }

    /** Whether this is an IPv4 range. */
    public boolean isIpv4() {
        return network.length == 4;
    }

    /** Whether the address (4 or 16 bytes) lies in this range; an address of the other family never does. */
    public boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (address[whole] & mask) == (network[whole] & mask);
    }

    /** Whether every address of this range lies in {@code other}. */
    public boolean isWithin(Cidr other) {
        return prefix >= other.prefix && other.contains(network);
    }

    /** Whether this range is a single address (/32, /128). */
    public boolean isSingleAddress() {
        return prefix == network.length * 8;
    }

    /** The IPv4 network address as an unsigned 32-bit number. */
    public long network() {
        requireIpv4();
        long value = 0;
        for (byte b : network) {
            value = (value << 8) | (b & 0xFF);
        }
        return value;
    }

    /** Whether the IPv4 address lies in this subnet (network and broadcast addresses included). */
    public boolean contains(long address) {
        return isIpv4() && (address & mask(prefix)) == network();
    }

    /** Whether the dotted IPv4 address lies in this subnet. */
    public boolean contains(String address) {
        return isAddress(address) && contains(address(address));
    }

    /** The last address of the IPv4 subnet. */
    public long broadcast() {
        return network() | (~mask(prefix) & 0xFFFF_FFFFL);
    }

    /** IPv4 addresses usable by hosts: all but the network and broadcast addresses (none below /30). */
    public long hostCount() {
        requireIpv4();
        return prefix > 30 ? 0 : (1L << (32 - prefix)) - 2;
    }

    /** The {@code index}-th IPv4 host address (0-based), i.e. {@code network + 1 + index}. */
    public long host(long index) {
        if (index < 0 || index >= hostCount()) {
            throw new IndexOutOfBoundsException("host " + index + " of " + this);
        }
        return network() + 1 + index;
    }

    /** Whether the IPv4 address is one a host may have: inside, and neither the network nor the broadcast address. */
    public boolean isHost(long address) {
        return hostCount() > 0 && contains(address) && address != network() && address != broadcast();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr that && prefix == that.prefix && Arrays.equals(network, that.network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    /** The shortest text: {@code 10.0.0.0/8}, {@code fd00:1::/64}; an IPv4-mapped range stays IPv6. */
    @Override
    public String toString() {
        return IpAddresses.shortText(network) + "/" + prefix;
    }

    private void requireIpv4() {
        if (!isIpv4()) {
            throw new IllegalStateException(this + " is not an IPv4 subnet");
        }
    }

    private static byte[] masked(byte[] bytes, int length) {
        byte[] out = bytes.clone();
        for (int bit = length; bit < out.length * 8; bit++) {
            out[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return out;
    }

    private static byte[] bytes(long address) {
        return new byte[] {(byte) (address >> 24), (byte) (address >> 16), (byte) (address >> 8), (byte) address};
    }

    private static long mask(int prefix) {
        return prefix == 0 ? 0 : (0xFFFF_FFFFL << (32 - prefix)) & 0xFFFF_FFFFL;
    }

    private static long octets(Matcher m, String input) {
        long value = 0;
        for (int i = 1; i <= 4; i++) {
            int octet = Integer.parseInt(m.group(i));
            if (octet > 255) {
                throw new IllegalArgumentException("'" + input + "' has an octet above 255");
            }
            value = (value << 8) | octet;
        }
        return value;
    }
}
