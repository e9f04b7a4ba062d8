package io.trimus.adapter.egress;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An IPv4 subnet such as {@code 172.30.0.0/24}, with the address arithmetic the sandbox address pool needs.
 *
 * @param network the network address as an unsigned 32-bit number (host bits zero)
 * @param prefix  the prefix length, 0 to 32
 */
public record Ipv4Subnet(long network, int prefix) {

    private static final Pattern CIDR = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");
    private static final Pattern ADDRESS = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    public Ipv4Subnet {
        if (prefix < 0 || prefix > 32) {
            throw new IllegalArgumentException("prefix length must be 0 to 32, got " + prefix);
        }
        if ((network & ~mask(prefix) & 0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException(text(network) + "/" + prefix + " has host bits set; the subnet is "
                    + text(network & mask(prefix)) + "/" + prefix);
        }
    }

    /** Parses {@code a.b.c.d/n}; the address must be the network address itself. */
    public static Ipv4Subnet parse(String cidr) {
        Matcher m = cidr == null ? null : CIDR.matcher(cidr.trim());
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("'" + cidr + "' is not an IPv4 subnet such as 172.30.0.0/24");
        }
        return new Ipv4Subnet(octets(m, cidr), Integer.parseInt(m.group(5)));
    }

    /** Parses a dotted IPv4 address into an unsigned 32-bit number. */
    public static long address(String text) {
        Matcher m = text == null ? null : ADDRESS.matcher(text.trim());
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

    /** Whether the address lies in this subnet (network and broadcast addresses included). */
    public boolean contains(long address) {
        return (address & mask(prefix)) == network;
    }

    /** Whether the dotted address lies in this subnet. */
    public boolean contains(String address) {
        return isAddress(address) && contains(address(address));
    }

    /** The last address of the subnet. */
    public long broadcast() {
        return network | (~mask(prefix) & 0xFFFF_FFFFL);
    }

    /** Addresses usable by hosts: all but the network and broadcast addresses (none below /30). */
    public long hostCount() {
        return prefix > 30 ? 0 : (1L << (32 - prefix)) - 2;
    }

    /** The {@code index}-th host address (0-based), i.e. {@code network + 1 + index}. */
    public long host(long index) {
        if (index < 0 || index >= hostCount()) {
            throw new IndexOutOfBoundsException("host " + index + " of " + this);
        }
        return network + 1 + index;
    }

    /** Whether the address is one a host may have: inside, and neither the network nor the broadcast address. */
    public boolean isHost(long address) {
        return hostCount() > 0 && contains(address) && address != network && address != broadcast();
    }

    @Override
    public String toString() {
        return text(network) + "/" + prefix;
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
