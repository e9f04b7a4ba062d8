package io.trimus.adapter.offhost;

import io.trimus.commons.net.Cidr;
import io.trimus.commons.net.Classification;
import io.trimus.commons.net.IpAddresses;
import io.trimus.commons.net.SpecialAddresses;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses a call that leaves the host for a tenant (a lambda endpoint, an A2A peer) may dial: the SSRF guard,
 * in the spirit of Stripe's smokescreen, as a thin policy over Trimus's one address table ({@link SpecialAddresses},
 * shared with the egress proxy). Public unicast only; loopback, private, link-local, cloud metadata, CGNAT,
 * unspecified, multicast, broadcast, benchmark, documentation and reserved ranges are refused, and an IPv6 address
 * embedding an IPv4 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address it reaches.
 * The knob each caller names (TRIMUS_LAMBDA_ALLOW_PRIVATE, TRIMUS_A2A_ALLOW_PRIVATE) lists ranges allowed anyway,
 * matched against that reached address; the unspecified address is never allowed.
 *
 * <p>Pure: it classifies addresses and never resolves or dials anything. The caller resolves the host once, asks this
 * policy about every address, and dials exactly the address it was told is allowed.
 */
public final class EndpointAddressPolicy {
    private final List<Cidr> allowed;

    private EndpointAddressPolicy(List<Cidr> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /**
     * The policy with these ranges allowed despite their class, e.g. {@code 10.20.0.0/16} or {@code fd00:1::/64}; a
     * bare address means that address alone, blank entries are skipped.
     *
     * @param knob the setting the list was read from, e.g. TRIMUS_LAMBDA_ALLOW_PRIVATE, which its messages name
     * @throws IllegalArgumentException naming {@code knob} and the entry that is not a range
     */
    public static EndpointAddressPolicy allowing(List<String> ranges, String knob) {
        List<Cidr> allowed = new ArrayList<>();
        for (String entry : ranges) {
            if (entry != null && !entry.isBlank()) {
                try {
                    allowed.add(Cidr.parse(entry));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(knob + ": " + e.getMessage(), e);
                }
            }
        }
        return new EndpointAddressPolicy(allowed);
    }

    /** The policy that allows public unicast addresses only. */
    public static EndpointAddressPolicy publicOnly() {
        return new EndpointAddressPolicy(List.of());
    }

    /** Whether the address may be dialled, and if not, why. */
    public Verdict check(InetAddress address) {
        return check(address.getAddress());
    }

    /** The same for an address as bytes: 4 for IPv4, 16 for IPv6 (also an IPv4-mapped one, which InetAddress hides). */
    Verdict check(byte[] address) {
        Classification classified = SpecialAddresses.classify(address);
        if (classified.isPublic()) {
            return Verdict.ALLOW;
        }
        if (classified.addressClass().allowable() && covered(classified.reached())) {
            return Verdict.ALLOW;
        }
        return Verdict.refuse(classified.reason());
    }

    /**
     * Every address a host resolved to, judged: one refused address refuses the host, so a name cannot mix a public
     * address with a private one.
     *
     * @return the refusal naming the host and the first refused address, or an allowing verdict
     */
    public Verdict checkAll(String host, InetAddress[] resolved) {
        for (InetAddress address : resolved) {
            Verdict verdict = check(address);
            if (!verdict.allowed()) {
                return Verdict.refuse(host + " resolves to " + text(address.getAddress()) + ", and "
                        + verdict.reason());
            }
        }
        return Verdict.ALLOW;
    }

    /**
     * An IP literal as the host of a URL is judged without any lookup; a host name is not a literal.
     *
     * @return the literal's address, or empty when {@code host} is a name
     */
    public static Optional<InetAddress> literal(String host) {
        return IpAddresses.literal(host);
    }

    /** An address as text, an IPv4-mapped one shown as such. */
    public static String text(byte[] address) {
        return IpAddresses.text(address);
    }

    private boolean covered(byte[] address) {
        return allowed.stream().anyMatch(r -> r.contains(address));
    }

    /**
     * The policy's answer about one address.
     *
     * @param allowed whether it may be dialled
     * @param reason  why not, in a sentence a user can act on; null when allowed
     */
    public record Verdict(boolean allowed, String reason) {
        static final Verdict ALLOW = new Verdict(true, null);

        static Verdict refuse(String reason) {
            return new Verdict(false, reason);
        }
    }
}
