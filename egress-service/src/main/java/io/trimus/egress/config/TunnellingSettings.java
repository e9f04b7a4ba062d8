package io.trimus.egress.config;

import io.smallrye.config.WithDefault;

/**
 * Tunnelling through names ({@code trimus.egress.tunnelling}): every name a sandbox uses is scored per base domain;
 * see docs/egress.md, "Tunnelling".
 */
public interface TunnellingSettings {
    /**
     * The score (0 to 1) at which a sandbox's names under one base domain are suspected of carrying data out: a
     * {@code suspected_tunnelling} anomaly, and with {@code block} the base domain refused to that sandbox. 0.8 is
     * reached at about 1 KB of encoded labels or 160 distinct names (TRIMUS_EGRESS_TUNNELLING_THRESHOLD).
     */
    @WithDefault("0.8")
    double threshold();

    /**
     * {@code alert}: the anomaly only; {@code block}: the anomaly, and the base domain refused to the sandbox for the
     * rest of its run (TRIMUS_EGRESS_TUNNELLING_ACTION).
     */
    @WithDefault("alert")
    TunnellingAction action();
}
