package io.trimus.commons.config;

import io.smallrye.config.WithDefault;
import io.trimus.commons.messaging.KafkaStopBounds;

import java.time.Duration;

/**
 * How long a stopping service may wait on Kafka. Declared once here and extended by the {@code trimus.shutdown} group
 * of every service, so all four read the same knobs with the same defaults; {@link KafkaStopBounds} turns them into
 * the connector's settings before the application starts (its fallbacks equal these defaults; a test holds them
 * together).
 */
public interface ShutdownBounds {
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
     * default 200ms).
     */
    @WithDefault("200ms")
    Duration kafkaConsumerGrace();
}
