package io.trimus.adapter.lambda;

import io.trimus.adapter.net.Cidr;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses a lambda endpoint may be dialled at: the SSRF guard, in the spirit of Stripe's smokescreen. Public
 * unicast only; loopback, private, link-local (cloud metadata), CGNAT, unspecified, multicast, broadcast, benchmark,
 * documentation and reserved ranges are refused, and an IPv6 address embedding an IPv4 one (IPv4-mapped, NAT64, 6to4)
 * is judged by the IPv4 address it reaches. TRIMUS_LAMBDA_ALLOW_PRIVATE lists ranges that are allowed anyway.
 *
 * <p>Pure: it classifies addresses and never resolves or dials anything. The adapter resolves the endpoint's host
 * once, asks this policy about every address, and dials exactly the address it was told is allowed.
 */
public final class EndpointAddressPolicy {
    private static final List<Range> IPV4 = List.of(
            Range.of("0.0.0.0/8", "an unspecified (\"this network\") address"),
            Range.of("10.0.0.0/8", "a private address"),
            Range.of("100.64.0.0/10", "a carrier-grade NAT (shared) address"),
            Range.of("127.0.0.0/8", "a loopback address"),
            Range.of("169.254.0.0/16", "a link-local address (where cloud metadata services answer)"),
            Range.of("172.16.0.0/12", "a private address"),
            Range.of("192.0.0.0/24", "an IETF protocol assignment address"),
            Range.of("192.0.2.0/24", "a documentation address"),
            Range.of("192.88.99.0/24", "a 6to4 relay anycast address"),
            Range.of("192.168.0.0/16", "a private address"),
            Range.of("198.18.0.0/15", "a benchmarking address"),
            Range.of("198.51.100.0/24", "a documentation address"),
            Range.of("203.0.113.0/24", "a documentation address"),
            Range.of("224.0.0.0/4", "a multicast address"),
            Range.of("255.255.255.255/32", "the broadcast address"),
            Range.of("240.0.0.0/4", "a reserved address"));
    private static final List<Range> IPV6 = List.of(
            Range.of("::/128", "the unspecified address"),
            Range.of("::1/128", "a loopback address"),
            Range.of("::/96", "an IPv4-compatible address (deprecated)"),
            Range.of("64:ff9b:1::/48", "a local-use NAT64 address"),
            Range.of("100::/64", "a discard-only address"),
            Range.of("2001::/32", "a Teredo address (it embeds IPv4 addresses)"),
            Range.of("2001:2::/48", "a benchmarking address"),
            Range.of("2001:10::/28", "an ORCHID address"),
            Range.of("2001:20::/28", "an ORCHID address"),
            Range.of("2001:db8::/32", "a documentation address"),
            Range.of("3fff::/20", "a documentation address"),
            Range.of("fc00::/7", "a unique local (private) address"),
            Range.of("fe80::/10", "a link-local address"),
            Range.of("fec0::/10", "a site-local address (deprecated)"),
            Range.of("ff00::/8", "a multicast address"));
    /** IPv6 prefixes whose address carries an IPv4 address, and where it sits. */
    private static final List<Embedding> EMBEDDINGS = List.of(
            new Embedding(Range.of("::ffff:0:0/96", "an IPv4-mapped address"), 12),
            new Embedding(Range.of("64:ff9b::/96", "a NAT64 address"), 12),
            new Embedding(Range.of("2002::/16", "a 6to4 address"), 2));
    private static final Range GLOBAL_UNICAST = Range.of("2000::/3", "global unicast");
    private static final Range IPV4_MAPPED = EMBEDDINGS.get(0).range;

    private final List<Range> allowed;

    private EndpointAddressPolicy(List<Range> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /**
     * The policy with these ranges allowed despite their class, e.g. {@code 10.20.0.0/16} or {@code fd00:1::/64}; a
     * bare address means that address alone.
     *
     * @throws IllegalArgumentException naming TRIMUS_LAMBDA_ALLOW_PRIVATE and the entry that is not a range
     */
    public static EndpointAddressPolicy allowing(List<String> ranges) {
        return allowing(ranges, "TRIMUS_LAMBDA_ALLOW_PRIVATE");
    }

    /**
     * The same with the list read from another knob, e.g. TRIMUS_A2A_ALLOW_PRIVATE, which its messages then name.
     *
     * @throws IllegalArgumentException naming {@code knob} and the entry that is not a range
     */
    public static EndpointAddressPolicy allowing(List<String> ranges, String knob) {
        List<Range> allowed = new ArrayList<>();
        for (String entry : ranges) {
            if (entry != null && !entry.isBlank()) {
                try {
                    allowed.add(Range.of(entry.trim(), "allowed by " + knob));
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
        String text = text(address);
        byte[] embedded = null;
        String embedding = null;
        if (address.length == 16) {
            for (Embedding e : EMBEDDINGS) {
                if (e.range.contains(address)) {
                    embedded = Arrays.copyOfRange(address, e.offset, e.offset + 4);
                    embedding = e.range.description;
                }
            }
        }
        if (covered(address) || (embedded != null && covered(embedded))) {
            return Verdict.ALLOW;
        }
        if (embedded != null) {
            String reached = text + " is " + embedding + " of " + text(embedded);
            return refusal(embedded).map(r -> Verdict.refuse(reached + ", " + r)).orElse(Verdict.ALLOW);
        }
        return refusal(address).map(r -> Verdict.refuse(text + " is " + r)).orElse(Verdict.ALLOW);
    }

    /**
     * An IP literal as the host of a URL is judged without any lookup; a host name is not a literal.
     *
     * @return the literal's address, or empty when {@code host} is a name
     */
    public static Optional<InetAddress> literal(String host) {
        return Cidr.literal(host);
    }

    private boolean covered(byte[] address) {
        return allowed.stream().anyMatch(r -> r.contains(address));
    }

    private static Optional<String> refusal(byte[] address) {
        List<Range> table = address.length == 4 ? IPV4 : IPV6;
        for (Range range : table) {
            if (range.contains(address)) {
                return Optional.of(range.description);
            }
        }
        if (address.length == 16 && !GLOBAL_UNICAST.contains(address)) {
            return Optional.of("outside the global unicast range 2000::/3");
        }
        return Optional.empty();
    }

    /** An address as text, an IPv4-mapped one shown as such. */
    public static String text(byte[] address) {
        try {
            if (address.length == 16 && IPV4_MAPPED.contains(address)) {
                return "::ffff:" + InetAddress.getByAddress(Arrays.copyOfRange(address, 12, 16)).getHostAddress();
            }
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("an address has 4 or 16 bytes, not " + address.length, e);
        }
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

    private record Embedding(Range range, int offset) {
    }

    /** A CIDR range of either family, with what an address in it is. */
    private record Range(Cidr cidr, String description) {

        static Range of(String cidr, String description) {
            return new Range(Cidr.range(cidr), description);
        }

        boolean contains(byte[] address) {
            return cidr.contains(address);
        }
    }
}
