package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;

/** Knobs of the host-process CLI adapters. */
public interface LocalConfig {
    /**
     * Variables of the service's environment a host-process CLI does not inherit; an entry ending in {@code *} is a
     * prefix (TRIMUS_LOCAL_ENV_STRIP, comma-separated, default DATABASE_URL,TRIMUS_ENCRYPTION_KEY,
     * TRIMUS_DISPATCH_KEY,TRIMUS_DB_*,QUARKUS_DATASOURCE_*).
     */
    @WithDefault("DATABASE_URL,TRIMUS_ENCRYPTION_KEY,TRIMUS_DISPATCH_KEY,TRIMUS_DB_*,QUARKUS_DATASOURCE_*")
    List<String> envStrip();

    /** Host-process runs executed at the same time (TRIMUS_LOCAL_MAX_CONCURRENT_RUNS, default 2). */
    @WithDefault("2")
    int maxConcurrentRuns();

    /** Wall-clock limit of a run whose agent sets no timeout_sec (TRIMUS_LOCAL_DEFAULT_TIMEOUT_SEC, default 1800). */
    @WithDefault("1800")
    int defaultTimeoutSec();

    /** Between SIGTERM and SIGKILL of a timed-out or cancelled process tree (TRIMUS_LOCAL_KILL_GRACE, default 5s). */
    @WithDefault("5s")
    Duration killGrace();
}
