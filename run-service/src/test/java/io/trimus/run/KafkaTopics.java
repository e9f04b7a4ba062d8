package io.trimus.run;

import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.awaitility.Awaitility.await;

/** Reads and writes the real broker the way another service would; one per test JVM ({@link #shared()}). */
final class KafkaTopics implements AutoCloseable {
    private static KafkaTopics shared;

    private final KafkaCompanion companion;

    /** The instance of this test JVM, on the broker of the app under test; closed when the JVM ends. */
    static synchronized KafkaTopics shared() {
        if (shared == null) {
            shared = new KafkaTopics();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close));
        }
        return shared;
    }

    KafkaTopics() {
        companion = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    /** Waits until a record with this key is on the topic (read from the beginning) and returns it. */
    ConsumerRecord<String, String> awaitRecord(String topic, String key) {
        try (ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(topic)) {
            return await().atMost(Duration.ofSeconds(60)).until(() -> find(task.getRecords(), key), Optional::isPresent)
                    .orElseThrow();
        }
    }

    /** Waits until at least {@code count} records with this key are on the topic (read from the beginning). */
    List<ConsumerRecord<String, String>> awaitRecords(String topic, String key, int count) {
        try (ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(topic)) {
            return await().atMost(Duration.ofSeconds(60))
                    .until(() -> task.getRecords().stream().filter(r -> key.equals(r.key())).toList(),
                            records -> records.size() >= count);
        }
    }

    /** All records with this key on the topic after waiting {@code quiet} for stragglers. */
    List<ConsumerRecord<String, String>> recordsAfter(String topic, String key, Duration quiet) {
        try (ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(topic)) {
            await().pollDelay(quiet).atMost(quiet.plusSeconds(30)).until(() -> true);
            return task.getRecords().stream().filter(r -> key.equals(r.key())).toList();
        }
    }

    void produce(String topic, String key, String json) {
        companion.produceStrings().fromRecords(new ProducerRecord<>(topic, key, json)).awaitCompletion(Duration.ofSeconds(30));
    }

    static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static Optional<ConsumerRecord<String, String>> find(List<ConsumerRecord<String, String>> records, String key) {
        return records.stream().filter(r -> key.equals(r.key())).findFirst();
    }

    @Override
    public void close() {
        companion.close();
    }
}
