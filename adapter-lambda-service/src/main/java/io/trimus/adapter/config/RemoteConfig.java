package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Knobs of the remote adapter's dispatching side. */
public interface RemoteConfig {
    /**
     * How long a remote run may wait for a worker of its tag to claim it; then it fails with the reason, and no
     * worker starts it any more (TRIMUS_REMOTE_CLAIM_TIMEOUT, default 60s).
     */
    @WithDefault("60s")
    Duration claimTimeout();

    /**
     * How often the dispatcher looks for remote runs past their claim timeout or whose worker stopped beating
     * (TRIMUS_REMOTE_WATCH_INTERVAL, default 1s).
     */
    @WithDefault("1s")
    Duration watchInterval();

    /**
     * After the dispatcher reaches the Kafka broker again, how much longer than a worker's miss window (three beats)
     * a worker may stay silent before its runs fail as "worker lost": the time the heartbeat consumer needs to rejoin
     * its group and the workers' producers to deliver. Keep it at least the heartbeat consumer's session timeout
     * (10 s) (TRIMUS_REMOTE_REJOIN_GRACE, default 10s).
     */
    @WithDefault("10s")
    Duration rejoinGrace();

    /**
     * Partitions of trimus.remote.tasks, which the dispatcher and the workers create it with (or raise it to) when
     * the broker lets them: tasks are keyed by run id, so a tag's tasks spread over this many partitions and a
     * tag's workers each own some; more workers of one tag than partitions stand idle
     * (TRIMUS_REMOTE_TASK_PARTITIONS, default 12).
     */
    @WithDefault("12")
    int taskPartitions();
}
