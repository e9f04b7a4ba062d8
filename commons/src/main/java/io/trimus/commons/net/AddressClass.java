package io.trimus.commons.net;

/**
 * A class of special-purpose addresses that Trimus never dials on a tenant's behalf unless an operator's allow-private
 * knob opens it; {@link #label()} is the word logs, anomalies and refusals use.
 */
public enum AddressClass {
    /** 0.0.0.0/8 and ::; never opened by any knob: Linux dials 0.0.0.0 as the host itself. */
    UNSPECIFIED("unspecified"),
    LOOPBACK("loopback"),
    /** RFC 1918 and IPv6 unique local fc00::/7. */
    PRIVATE("private"),
    /** Carrier-grade NAT, 100.64.0.0/10. */
    CGNAT("cgnat"),
    LINK_LOCAL("link-local"),
    /** The cloud metadata service: 169.254.169.254 and fd00:ec2::254. */
    METADATA("metadata"),
    /** fec0::/10, deprecated. */
    SITE_LOCAL("site-local"),
    MULTICAST("multicast"),
    BROADCAST("broadcast"),
    BENCHMARKING("benchmarking"),
    DOCUMENTATION("documentation"),
    /** IETF assignments, ORCHID, discard-only, local-use NAT64, 240/4, deprecated forms, IPv6 outside 2000::/3. */
    RESERVED("reserved"),
    /** A Teredo address (2001::/32) whose client address is public: a tunnel through a relay, refused anyway. */
    TEREDO("teredo");

    private final String label;

    AddressClass(String label) {
        this.label = label;
    }

    /** The class as one word, e.g. {@code link-local}. */
    public String label() {
        return label;
    }

    /** Whether an allow-private knob may open this class at all; never for the unspecified address. */
    public boolean allowable() {
        return this != UNSPECIFIED;
    }

    @Override
    public String toString() {
        return label;
    }
}
