package io.trimus.commons.streams;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * The bounds of a service's long-lived answers (server-sent events, A2A streams, blocking A2A sends): a group of each
 * serving service's {@code trimus} mapping, so every service reads the same {@code trimus.streams.*} knobs with the
 * same defaults and the same words on docs/configuration.md.
 */
public interface StreamLimits {
    /**
     * How often an open stream asks again who its caller is, the same way a new request is asked: a revoked or expired
     * credential, a removed membership, a role below what the stream needs, or a check that cannot be answered ends
     * the stream (TRIMUS_STREAMS_RECHECK, default 30s).
     */
    @WithDefault("30s")
    Duration recheck();

    /**
     * Most streams and blocking waits one credential holds open at once on one instance; one more is refused (429
     * problem+json, a JSON-RPC error over A2A) until one ends (TRIMUS_STREAMS_MAX_PER_CALLER, default 10).
     */
    @WithDefault("10")
    int maxPerCaller();
}
