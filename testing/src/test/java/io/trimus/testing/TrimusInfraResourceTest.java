package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The resource as a Quarkus test sees it: real broker and database in child JVMs, steered over the control port. */
class TrimusInfraResourceTest {
    private static final TrimusInfraResource RESOURCE = new TrimusInfraResource();
    private static Map<String, String> config;

    @BeforeAll
    static void startInfra() {
        long started = System.nanoTime();
        config = RESOURCE.start();
        System.out.printf("infra ready in %d ms: %s%n", (System.nanoTime() - started) / 1_000_000, config);
        // what Quarkus does with the returned map; InfraControl.fromConfig() then finds the control port
        System.setProperty(InfraControl.CONFIG_KEY, config.get(InfraControl.CONFIG_KEY));
    }

    @AfterAll
    static void stopInfra() {
        RESOURCE.stop();
        int kafkaPort = port(config.get("kafka.bootstrap.servers"));
        int postgresPort = port(config.get("quarkus.datasource.reactive.url").replace("/postgres", ""));
        // the children are gone once stop() returns: their ports are free again
        assertThatCode(() -> Ports.requireFree(kafkaPort, "Kafka", "-")).doesNotThrowAnyException();
        assertThatCode(() -> Ports.requireFree(postgresPort, "PostgreSQL", "-")).doesNotThrowAnyException();
    }

    @Test
    void theResourceHandsQuarkusEveryAddress() {
        assertThat(config).containsEntry("quarkus.devservices.enabled", "false")
                .containsEntry("quarkus.flyway.username", "postgres")
                .containsKey("quarkus.flyway.password")
                // each service logs in as its own role, not the owner the resource names for Flyway
                .doesNotContainKey("quarkus.datasource.username");
        assertThat(config.get("kafka.bootstrap.servers")).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(config.get("quarkus.datasource.reactive.url")).matches("postgresql://127\\.0\\.0\\.1:\\d+/postgres");
        assertThat(config.get("quarkus.datasource.jdbc.url")).matches("jdbc:postgresql://127\\.0\\.0\\.1:\\d+/postgres");
        assertThat(config.get(InfraControl.CONFIG_KEY)).matches("127\\.0\\.0\\.1:\\d+");
    }

    @Test
    void aRecordRoundTripsThroughTheBroker() throws Exception {
        String topic = "round-trip-" + UUID.randomUUID();
        try (KafkaProducer<String, String> producer = producer(Duration.ofSeconds(30))) {
            producer.send(new ProducerRecord<>(topic, "run-1", "hello")).get(30, TimeUnit.SECONDS);
        }
        assertThat(readAll(topic, "reader-" + UUID.randomUUID(), 1)).extracting(ConsumerRecord::value)
                .containsExactly("hello");
    }

    @Test
    void postgresAnswersSelectOne() throws Exception {
        try (Connection connection = DriverManager.getConnection(config.get("quarkus.datasource.jdbc.url"),
                config.get("quarkus.flyway.username"), config.get("quarkus.flyway.password"));
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("select 1")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void theControlPortAnswersPingAndRefusesUnknownCommands() {
        InfraControl control = InfraControl.fromConfig();
        assertThatCode(control::ping).doesNotThrowAnyException();
        assertThatThrownBy(() -> control.send("kafka explode"))
                .hasMessageContaining("ERR unknown command 'kafka explode'");
    }

    @Test
    void aStoppedBrokerFailsFastAndARestartedOneStillHasItsRecordsAndOffsets() throws Exception {
        String topic = "kept-" + UUID.randomUUID();
        String group = "group-" + UUID.randomUUID();
        try (KafkaProducer<String, String> producer = producer(Duration.ofSeconds(30))) {
            producer.send(new ProducerRecord<>(topic, "k", "before-stop-1")).get(30, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(topic, "k", "before-stop-2")).get(30, TimeUnit.SECONDS);
        }
        commit(group, new TopicPartition(topic, 0), 1);

        InfraControl control = InfraControl.fromConfig();
        control.stopKafka();
        try {
            long sending = System.nanoTime();
            try (KafkaProducer<String, String> producer = producer(Duration.ofSeconds(3))) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "k", "while-down"))
                        .get(20, TimeUnit.SECONDS))
                        .satisfiesAnyOf(
                                e -> assertThat(e).isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class),
                                e -> assertThat(e).hasRootCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - sending)).isLessThan(Duration.ofSeconds(15));
        } finally {
            control.startKafka();
        }

        assertThat(readAll(topic, "reader-" + UUID.randomUUID(), 2)).extracting(ConsumerRecord::value)
                .containsExactly("before-stop-1", "before-stop-2");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", config.get("kafka.bootstrap.servers")))) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            assertThat(offsets.get(new TopicPartition(topic, 0)).offset()).isEqualTo(1);
        }
    }

    private static KafkaProducer<String, String> producer(Duration maxBlock) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.get("kafka.bootstrap.servers"));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) maxBlock.toMillis());
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) maxBlock.toMillis());
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) maxBlock.toMillis());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(String group) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.get("kafka.bootstrap.servers"));
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    private static List<ConsumerRecord<String, String>> readAll(String topic, String group, int expected) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer(group)) {
            consumer.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
                return records.size() >= expected;
            });
        }
        return records;
    }

    private static void commit(String group, TopicPartition partition, long offset) {
        try (KafkaConsumer<String, String> consumer = consumer(group)) {
            consumer.assign(List.of(partition));
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(offset)), Duration.ofSeconds(30));
        }
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }
}
