package io.trimus.adapter.net;

import io.trimus.commons.net.AddressPrefix;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An address range in CIDR notation, IPv4 or IPv6: the one CIDR type of the service. The egress network's subnet and
 * its sandbox address arithmetic (IPv4, addresses as unsigned 32-bit numbers) and the SSRF guard's address classes and
 * TRIMUS_LAMBDA_ALLOW_PRIVATE ranges (either family, addresses as bytes) are all this type.
 */
public final class Cidr {

    private static final Pattern IPV4_CIDR =
            Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");
    private static final Pattern IPV4_ADDRESS = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** The network address, 4 or 16 bytes, host bits zero. */
    private final byte[] network;
    private final int prefix;

    private Cidr(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
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

    /**
     * Parses a range of either family, e.g. {@code 10.20.0.0/16} or {@code fd00:1::/64}; a bare address means that
     * address alone, and {@code ::ffff:a.b.c.d/n} is a range over IPv6.
     */
    public static Cidr range(String cidr) {
        int slash = cidr.indexOf('/');
        String host = slash < 0 ? cidr : cidr.substring(0, slash);
        InetAddress address = literal(host).orElseThrow(() ->
                new IllegalArgumentException("'" + cidr + "' is not an address range such as 10.20.0.0/16 or"
                        + " fd00:1::/64"));
        byte[] bytes = address.getAddress();
        if (host.indexOf(':') >= 0 && bytes.length == 4) {
            // ::ffff:a.b.c.d/n: InetAddress reads it as IPv4, the range is meant over IPv6
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            bytes = mapped;
        }
        int prefix;
        try {
            prefix = slash < 0 ? bytes.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + cidr + "' has no prefix length after the /");
        }
        if (prefix < 0 || prefix > bytes.length * 8) {
            throw new IllegalArgumentException("'" + cidr + "' has a prefix length outside 0.." + bytes.length * 8);
        }
        for (int bit = prefix; bit < bytes.length * 8; bit++) {
            if ((bytes[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                throw new IllegalArgumentException("'" + cidr + "' has host bits set after /" + prefix);
            }
        }
        return new Cidr(bytes, prefix);
    }

    /**
     * An IP literal (dotted IPv4, or IPv6 without brackets), read without any lookup; a host name is not a literal.
     *
     * @return the literal's address, or empty when {@code host} is a name
     */
    public static Optional<InetAddress> literal(String host) {
        try {
            if (host.indexOf(':') >= 0) {
                // bracketed, InetAddress accepts an IPv6 literal only and never asks DNS
                return Optional.of(InetAddress.getByName("[" + host + "]"));
            }
            if (!IPV4_LITERAL.matcher(host).matches()) {
                return Optional.empty();
            }
            byte[] bytes = new byte[4];
            String[] octets = host.split("\\.");
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(octets[i]);
                if (octet > 255) {
                    return Optional.empty();
                }
                bytes[i] = (byte) octet;
            }
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
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
        return AddressPrefix.matches(network, prefix, address);
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

    @Override
    public String toString() {
        if (isIpv4()) {
            return text(network()) + "/" + prefix;
        }
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private void requireIpv4() {
        if (!isIpv4()) {
            throw new IllegalStateException(this + " is not an IPv4 subnet");
        }
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
