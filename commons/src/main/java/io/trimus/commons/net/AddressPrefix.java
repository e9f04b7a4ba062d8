package io.trimus.commons.net;

/**
 * The one bitwise test behind every CIDR range in Trimus (the adapter's sandbox subnets and SSRF guard, the egress
 * proxy's address classes): whether an address's leading bits equal a network's.
 */
public final class AddressPrefix {
    private AddressPrefix() {
    }

    /**
     * Whether {@code address} lies in {@code network}/{@code prefix}; both 4 or 16 bytes. An address of the other family
     * never does.
     */
    public static boolean matches(byte[] network, int prefix, byte[] address) {
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
}
