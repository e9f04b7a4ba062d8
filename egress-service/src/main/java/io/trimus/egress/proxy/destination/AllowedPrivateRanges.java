package io.trimus.egress.proxy.destination;

import io.trimus.commons.net.Cidr;
import io.trimus.commons.net.SpecialAddresses;

import java.util.ArrayList;
import java.util.List;

/**
 * TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE: the non-public ranges the operator lets the proxy dial anyway (a test network, a
 * private service). Entries are matched against the address after unwrapping an IPv4-embedding IPv6 form, and some
 * classes need an entry that names them narrowly, so a broad entry such as {@code 0.0.0.0/0} opens private networks
 * but never the host itself: loopback only by an entry inside 127.0.0.0/8 or ::1/128, one of the host's own addresses
 * only by a single-address entry (/32, /128) equal to it. The unspecified address is never allowed.
 */
final class AllowedPrivateRanges {
    static final String VARIABLE = "TRIMUS_EGRESS_PROXY_ALLOW_PRIVATE";
    static final AllowedPrivateRanges NONE = new AllowedPrivateRanges(List.of());

    private final List<Cidr> ranges;

    private AllowedPrivateRanges(List<Cidr> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /**
     * Parses the configured entries, e.g. {@code 10.20.0.0/16} or {@code fd00:1::/64}; a bare address is that
     * address alone, blank entries are skipped.
     *
     * @throws IllegalArgumentException a sentence naming the variable and the entry at fault
     */
    static AllowedPrivateRanges parse(List<String> entries) {
        List<Cidr> ranges = new ArrayList<>();
        for (String entry : entries) {
            if (entry == null || entry.isBlank()) {
                continue;
            }
            try {
                ranges.add(Cidr.parse(entry));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(VARIABLE + " lists " + e.getMessage()
                        + "; it takes comma-separated CIDR ranges such as 10.20.0.0/16,fd00:1::/64", e);
            }
        }
        return new AllowedPrivateRanges(ranges);
    }

    /** Whether some entry covers this (unwrapped) address of a private, link-local, CGNAT… class. */
    boolean covers(byte[] address) {
        for (Cidr range : ranges) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** Whether an entry that lies inside loopback covers this loopback address. */
    boolean coversLoopback(byte[] address) {
        for (Cidr range : ranges) {
            if (range.contains(address)
                    && (range.isWithin(SpecialAddresses.IPV4_LOOPBACK) || range.isWithin(SpecialAddresses.IPV6_LOOPBACK))) {
                return true;
            }
        }
        return false;
    }

    /** Whether a single-address entry names exactly this address of the host. */
    boolean namesExactly(byte[] address) {
        for (Cidr range : ranges) {
            if (range.isSingleAddress() && range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return ranges.isEmpty() ? "none" : ranges.toString();
    }
}
