package io.trimus.egress.policy;

import java.util.UUID;

/** Every company's egress mode in memory, read by the resolver and the proxy on each decision. */
public interface EgressModes {
    /** The company's mode; {@link EgressMode#ENFORCE} for a company that never set one. */
    EgressMode mode(UUID companyId);

    /**
     * How many times a mode changed in memory since start: open proxy connections are checked again when it moves
     * ({@link io.trimus.egress.proxy.admission.ProxyPolicy#changes()}). 0 for a source that never changes.
     */
    default long changes() {
        return 0;
    }
}
