package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.util.List;
import java.util.Optional;

/** Knobs of the lambda adapter. */
public interface LambdaConfig {
    /**
     * Address ranges a lambda endpoint may resolve to although they are not public (loopback, private, link-local,
     * CGNAT…), e.g. {@code 10.20.0.0/16,fd00:1::/64}; a bare address means that address alone
     * (TRIMUS_LAMBDA_ALLOW_PRIVATE, comma-separated CIDRs, default none: public unicast only).
     */
    Optional<List<String>> allowPrivate();

    /**
     * Bytes of an endpoint's answer read at most; a longer one is cut off and the run fails
     * (TRIMUS_LAMBDA_MAX_RESPONSE_BYTES, default 1048576).
     */
    @WithDefault("1048576")
    int maxResponseBytes();

    /** Lambda calls in flight at the same time; further runs wait in order (TRIMUS_LAMBDA_MAX_CONCURRENT_RUNS, default 16). */
    @WithDefault("16")
    int maxConcurrentRuns();
}
