package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How this process renews its lease on the runs it holds, which run-service uses to recover them if it is lost. */
public interface LeaseConfig {
    /**
     * How often this process says which runs it holds; run-service counts it lost after three missed beats and
     * recovers its runs (TRIMUS_ADAPTER_LEASE_INTERVAL, default 2s). Keep it well under the consumer session
     * timeout (10 s), so a lost process's beats are read before its run requests go to another.
     */
    @WithDefault("2s")
    Duration interval();

    /**
     * How long a run waits for the broker to acknowledge the beat that lists it as started; without that
     * acknowledgement the run is not started and ends FAILED (TRIMUS_ADAPTER_LEASE_START_TIMEOUT, default 10s).
     */
    @WithDefault("10s")
    Duration startTimeout();
}
