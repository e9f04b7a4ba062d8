package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

/** What the adapter keeps of a run. */
public interface RunConfig {
    /**
     * Bytes of combined stdout+stderr kept per run, counted from the end (TRIMUS_RUN_OUTPUT_MAX_BYTES,
     * default 65536).
     */
    @WithDefault("65536")
    int outputMaxBytes();
}
