package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Worker mode. With tags set this process is a worker: it claims the remote runs of its tags, runs them with its
 * own adapters and gates, and no longer takes runs from trimus.run.requested (that is the dispatcher's job).
 */
public interface WorkerConfig {
    /**
     * The tags this worker claims remote runs of, e.g. {@code gpu,eu}; unset means this process is no worker
     * (TRIMUS_WORKER_TAGS, comma-separated, default none).
     */
    Optional<List<String>> tags();

    /** This worker's name in heartbeats and GET /api/workers (TRIMUS_WORKER_ID, default host name and a random suffix). */
    Optional<String> id();

    /**
     * How often the worker says it is alive; after three missed beats its runs fail as "worker lost"
     * (TRIMUS_WORKER_HEARTBEAT_INTERVAL, default 5s).
     */
    @WithDefault("5s")
    Duration heartbeatInterval();

    /**
     * Remote runs this worker holds at once (claimed and not yet ended, over all its tags). A worker at this
     * limit claims nothing more: it hands the tasks of its partitions back to the other workers of the tag and
     * takes new ones once a run ends (TRIMUS_WORKER_MAX_CONCURRENT_RUNS, default 4).
     */
    @WithDefault("4")
    int maxConcurrentRuns();

    /**
     * The session timeout of this worker's task consumers: a worker that died without leaving its tag's consumer
     * group keeps its partitions (and the tasks waiting on them) this long before the tag's other workers get them.
     * At least the broker's group.min.session.timeout.ms (6 s by default) (TRIMUS_WORKER_SESSION_TIMEOUT,
     * default 10s).
     */
    @WithDefault("10s")
    Duration sessionTimeout();
}
