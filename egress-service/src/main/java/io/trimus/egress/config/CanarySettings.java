package io.trimus.egress.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * Canaries ({@code trimus.egress.canary}): per company, a probe sandbox that tries what the company's policy must
 * refuse and one host it must let through; see docs/egress.md, "Canaries".
 */
public interface CanarySettings {
    /**
     * How often each company gets a scheduled canary; {@code 0} turns the schedule off (a canary on demand still
     * runs) (TRIMUS_EGRESS_CANARY_INTERVAL).
     */
    @WithDefault("15m")
    Duration interval();

    /**
     * How long a canary may stay running without a result from an adapter service; then it ends {@code failed},
     * saying so (TRIMUS_EGRESS_CANARY_TIMEOUT).
     */
    @WithDefault("3m")
    Duration timeout();

    /**
     * {@code address:port} of the public address literal every canary must reach neither directly nor through the
     * proxy (TRIMUS_EGRESS_CANARY_IP_LITERAL). In a deployment that holds, no packet reaches it.
     */
    @WithDefault("1.1.1.1:443")
    String ipLiteral();

    /** How long finished canaries are kept (TRIMUS_EGRESS_CANARY_RETENTION). */
    @WithDefault("30d")
    Duration retention();
}
