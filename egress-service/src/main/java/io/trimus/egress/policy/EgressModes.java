package io.trimus.egress.policy;

import java.util.UUID;

/** Every company's egress mode in memory, read by the resolver and the proxy on each decision. */
public interface EgressModes {
    /** The company's mode; {@link EgressMode#ENFORCE} for a company that never set one. */
    EgressMode mode(UUID companyId);
}
