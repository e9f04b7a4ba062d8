package io.trimus.commons.net;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * IP address literals read and written without any lookup: the host of a URL that may be a literal, the address
 * part of a {@link Cidr}, and an address shown in a refusal. Never resolves a name.
 */
public final class IpAddresses {
    private static final Pattern DOTTED = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern STRICT_OCTET = Pattern.compile("0|[1-9]\\d{0,2}");

    private IpAddresses() {
    }

    /**
     * An IP literal (dotted IPv4, or IPv6 without brackets) as the JDK would dial it, read without any lookup; a host
     * name is not a literal. Octets are decimal even with a leading zero ({@code 010.0.0.1} is 10.0.0.1), as the
     * JDK reads them.
     *
     * @return the literal's address, or empty when {@code host} is a name
     */
    public static Optional<InetAddress> literal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        try {
            if (host.indexOf(':') >= 0) {
                // bracketed, InetAddress accepts an IPv6 literal only and never asks DNS
                return Optional.of(InetAddress.getByName("[" + host + "]"));
            }
            if (!DOTTED.matcher(host).matches()) {
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

    /**
     * The bytes of a literal as a configuration entry must write it: dotted IPv4 with decimal octets and no leading
     * zeros (which some readers take as octal), or IPv6 without a zone id. An IPv4-mapped IPv6 text
     * ({@code ::ffff:a.b.c.d}) keeps its 16 bytes.
     *
     * @return 4 or 16 bytes, or null when {@code text} is not such a literal
     */
    static byte[] strict(String text) {
        if (text.indexOf(':') < 0) {
            String[] octets = text.split("\\.", -1);
            if (octets.length != 4) {
                return null;
            }
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                if (!STRICT_OCTET.matcher(octets[i]).matches() || Integer.parseInt(octets[i]) > 255) {
                    return null;
                }
                bytes[i] = (byte) Integer.parseInt(octets[i]);
            }
            return bytes;
        }
        if (text.indexOf('%') >= 0 || text.indexOf('[') >= 0 || text.indexOf(']') >= 0) {
            return null;
        }
        try {
            InetAddress address = InetAddress.getByName("[" + text + "]");
            if (address instanceof Inet4Address) {
                // the JDK reads ::ffff:a.b.c.d as IPv4; keep the form that was written
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(address.getAddress(), 0, mapped, 12, 4);
                return mapped;
            }
            return address.getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * An address as text, the JDK's form ({@code 2002:a00:1:0:0:0:0:0}), an IPv4-mapped one shown as such
     * ({@code ::ffff:127.0.0.1}) rather than as the IPv4 address the JDK would print.
     *
     * @param address 4 or 16 bytes
     */
    public static String text(byte[] address) {
        try {
            if (address.length == 16 && isIpv4Mapped(address)) {
                return "::ffff:" + InetAddress.getByAddress(Arrays.copyOfRange(address, 12, 16)).getHostAddress();
            }
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + address.length, e);
        }
    }

    /** An address as its shortest text (RFC 5952 for IPv6: lower case, the longest run of zero groups as ::). */
    static String shortText(byte[] address) {
        if (address.length == 4) {
            return (address[0] & 0xFF) + "." + (address[1] & 0xFF) + "." + (address[2] & 0xFF) + "."
                    + (address[3] & 0xFF);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((address[2 * i] & 0xFF) << 8) | (address[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1; // a single zero group is not shortened
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    /** Whether the bytes are an IPv4-mapped address (::ffff:0:0/96), which the JDK hides as IPv4. */
    static boolean isIpv4Mapped(byte[] address) {
        if (address.length != 16 || address[10] != (byte) 0xff || address[11] != (byte) 0xff) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
