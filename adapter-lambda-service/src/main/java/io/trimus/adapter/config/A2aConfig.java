package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Knobs of remote runs delegated to A2A peers. */
public interface A2aConfig {
    /**
     * Address ranges an A2A peer may resolve to although they are not public (loopback, private, link-local…),
     * e.g. {@code 10.20.0.0/16}; a bare address means that address alone. Separate from TRIMUS_LAMBDA_ALLOW_PRIVATE,
     * so a peer Trimus inside the network can be allowed without opening lambda to it (TRIMUS_A2A_ALLOW_PRIVATE,
     * comma-separated CIDRs, default none: public unicast only).
     */
    Optional<List<String>> allowPrivate();

    /**
     * Bytes of one answer of a peer read at most (the agent card, a JSON-RPC answer, one event of a stream); past
     * it the connection is reset and the run fails (TRIMUS_A2A_MAX_RESPONSE_BYTES, default 1048576).
     */
    @WithDefault("1048576")
    int maxResponseBytes();

    /**
     * Bytes of one event stream read at most, all its events together; past it the stream is reset and the run
     * fails (TRIMUS_A2A_MAX_STREAM_BYTES, default 16777216).
     */
    @WithDefault("16777216")
    long maxStreamBytes();

    /** How often a peer that does not stream is asked for its task (tasks/get) (TRIMUS_A2A_POLL_INTERVAL, default 1s). */
    @WithDefault("1s")
    Duration pollInterval();

    /** Runs exchanging with peers at the same time; further runs wait in order (TRIMUS_A2A_MAX_CONCURRENT_RUNS, default 64). */
    @WithDefault("64")
    int maxConcurrentRuns();
}
