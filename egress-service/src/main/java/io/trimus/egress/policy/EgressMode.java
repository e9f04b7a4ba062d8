package io.trimus.egress.policy;

/** How a company's egress policy treats a host not on its allowlist. */
public enum EgressMode {
    /** Denied: NXDOMAIN from the resolver, refused by the proxy, recorded as an anomaly (the default). */
    ENFORCE,
    /**
     * Let through (still steered and proxied, address classes still enforced), recorded as an anomaly with
     * {@code enforced: false}: for onboarding a company without breaking its agents.
     */
    REPORT
}
