package io.trimus.events;

/**
 * The question the adapter service asks the Trimus resolver before a sandbox starts, to know it answers. The
 * resolver answers it for any source with NOERROR and no records, without forwarding it or recording an anomaly;
 * any other resolver answers NXDOMAIN ({@code .invalid} is reserved, RFC 6761), so the answer also tells that the
 * address really is Trimus's resolver.
 */
public final class ResolverCheck {
    /** The probe name, fully qualified. */
    public static final String NAME = "resolver-check.trimus.invalid.";

    private ResolverCheck() {
    }
}
