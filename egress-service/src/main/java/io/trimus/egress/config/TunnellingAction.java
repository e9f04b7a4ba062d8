package io.trimus.egress.config;

/** What happens when a sandbox's score for a base domain crosses the threshold (TRIMUS_EGRESS_TUNNELLING_ACTION). */
public enum TunnellingAction {
    /** A {@code suspected_tunnelling} anomaly, nothing refused. */
    ALERT,
    /**
     * The anomaly, and the base domain refused to that sandbox for the rest of its run: lookups under it answered
     * REFUSED, connections to hosts under it refused, nothing under it resolved by the proxy for it.
     */
    BLOCK
}
