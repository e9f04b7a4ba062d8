package io.trimus.adapter.worker;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker's task consumer logs in like the service's channels: it takes the application's kafka.* settings. */
class RemoteTaskConsumerSettingsTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"trimus-worker\" password=\"not-a-real-one\";";

    /** What Quarkus's default-kafka-broker map holds for KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_* and kafka.bootstrap.servers. */
    private static final Map<String, Object> DEFAULTS = Map.of(
            "bootstrap.servers", "kafka.internal:9092",
            "security.protocol", "SASL_PLAINTEXT",
            "sasl.mechanism", "SCRAM-SHA-512",
            "sasl.jaas.config", JAAS,
            "group.id", "adapter-lambda-service",
            "acks", "all",
            "heap.opts", "-Xmx1g");

    @Test
    void theConsumerGetsTheSaslLoginAndBootstrapOfTheApplicationAndItsOwnGroup() {
        Properties props = RemoteTaskConsumer.consumerProperties(DEFAULTS, "gpu", "box-1");

        assertThat(props).containsEntry("bootstrap.servers", "kafka.internal:9092")
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", JAAS)
                .containsEntry("group.id", "trimus-worker-gpu")
                .containsEntry("client.id", "trimus-worker-box-1-gpu")
                .containsEntry("enable.auto.commit", "false")
                .containsEntry("key.deserializer", StringDeserializer.class.getName())
                .containsEntry("value.deserializer", ByteArrayDeserializer.class.getName())
                .doesNotContainKeys("acks", "heap.opts");
    }

    @Test
    void aRealConsumerAcceptsThoseSettings() {
        // the Kafka client checks the protocol, mechanism and JAAS login when it is built; it connects only on poll
        Map<String, Object> defaults = new HashMap<>(DEFAULTS);
        defaults.put("bootstrap.servers", "127.0.0.1:9");
        try (var consumer = new KafkaConsumer<String, byte[]>(RemoteTaskConsumer.consumerProperties(defaults, "gpu", "box-1"))) {
            assertThat(consumer.groupMetadata().groupId()).isEqualTo("trimus-worker-gpu");
        }
    }
}
