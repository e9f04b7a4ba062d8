package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The bounds of a stop. */
public interface ShutdownConfig {
    /**
     * How long closing one Kafka client may wait for records not yet sent and for leaving its consumer group; a
     * stop waits at most twice this per producer, so a service whose broker is gone still ends within seconds
     * (TRIMUS_SHUTDOWN_KAFKA_CLOSE_TIMEOUT, default 1s).
     */
    @WithDefault("1s")
    Duration kafkaCloseTimeout();

    /**
     * How long each Kafka consumer pauses at a stop before it commits what was processed and closes, one consumer
     * after the other; sets the connector's poll timeout to half of it (TRIMUS_SHUTDOWN_KAFKA_CONSUMER_GRACE,
     * default 500ms).
     */
    @WithDefault("500ms")
    Duration kafkaConsumerGrace();
}
