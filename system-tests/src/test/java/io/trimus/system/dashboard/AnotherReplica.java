package io.trimus.system.dashboard;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a second admin-ui process makes of the dashboard's application.properties (admin-ui's built one): the same
 * file resolved with a {@code quarkus.uuid} of its own, as every Quarkus process draws one at start. Its live-feed
 * consumer is a plain Kafka consumer with the group and offset settings that configuration gives the channel.
 */
final class AnotherReplica {
    private final SmallRyeConfig config;

    AnotherReplica() {
        // the dashboard's own file, as its build packaged it beside the jar the stack runs
        Path file = Path.of("..", "admin-ui", "target", "classes", "application.properties");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file.toAbsolutePath() + " does not exist: build admin-ui first");
        }
        try {
            URL properties = file.toUri().toURL();
            config = new SmallRyeConfigBuilder()
                    .withSources(new PropertiesConfigSource(properties))
                    .withSources(new PropertiesConfigSource(Map.of("quarkus.uuid", UUID.randomUUID().toString()),
                            "another process", 500))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The consumer group this replica's channel {@code channel} joins. */
    String group(String channel) {
        return config.getValue("mp.messaging.incoming." + channel + ".group.id", String.class);
    }

    /** This replica's consumer of {@code channel}, subscribed to its topic, on the tests' broker. */
    KafkaConsumer<String, String> consumer(String channel) {
        String connector = "mp.messaging.connector.smallrye-kafka.";
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Stack.config("kafka.bootstrap.servers"),
                ConsumerConfig.GROUP_ID_CONFIG, group(channel),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, config.getValue(connector + "auto.offset.reset", String.class),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, config.getValue(connector + "enable.auto.commit", String.class)),
                new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(config.getValue("mp.messaging.incoming." + channel + ".topic", String.class)));
        return consumer;
    }
}
