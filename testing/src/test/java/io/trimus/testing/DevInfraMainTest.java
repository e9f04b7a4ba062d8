package io.trimus.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./trimus up} as a user runs it: a second start finds the data of the first, and nothing outlives a stop. */
class DevInfraMainTest {
    @TempDir
    Path dir;

    @Test
    void aSecondStartFindsTheTablesAndRecordsOfTheFirst() throws Exception {
        List<Integer> ports = Ports.free(3);
        String bootstrap = "127.0.0.1:" + ports.get(0);
        String jdbcUrl = "jdbc:postgresql://127.0.0.1:" + ports.get(2) + "/postgres";

        ChildProcess first = up(ports);
        assertThat(first.tail()).contains("KAFKA=" + bootstrap, "POSTGRES=127.0.0.1:" + ports.get(2));
        sql(jdbcUrl, "create table kept(note text); insert into kept values ('from the first run')");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", bootstrap), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("kept", 0, null, "from the first run")).get(30, TimeUnit.SECONDS);
        }
        down(first, ports);

        ChildProcess second = up(ports);
        try {
            assertThat(sql(jdbcUrl, "select note from kept")).isEqualTo("from the first run");
            assertThat(endOffset(bootstrap, new TopicPartition("kept", 0))).isEqualTo(1);
        } finally {
            down(second, ports);
        }
    }

    @Test
    void aTakenPortIsReportedWithTheOptionThatMovesIt() throws Exception {
        List<Integer> ports = Ports.free(2);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ChildProcess dev = launch(List.of(ports.get(0), ports.get(1), taken.getLocalPort()));

            await().atMost(Duration.ofSeconds(30)).until(() -> dev.ready().isDone());
            assertThat(dev.ready()).isCompletedExceptionally();
            assertThat(dev.exitCodeText()).isEqualTo(" with code 1");
            assertThat(dev.tail()).contains("ERROR: port " + taken.getLocalPort() + " for PostgreSQL on 127.0.0.1 is in use")
                    .contains("--postgres-port or TRIMUS_POSTGRES_PORT");
        }
    }

    private ChildProcess up(List<Integer> ports) {
        ChildProcess dev = launch(ports);
        dev.awaitReady(Infra.READY_TIMEOUT);
        return dev;
    }

    private ChildProcess launch(List<Integer> ports) {
        List<String> command = ChildJvm.command(DevInfraMain.class, List.of("-Xmx64m"), List.of(
                "--data-dir", dir.resolve("data").toString(),
                "--kafka-port", String.valueOf(ports.get(0)),
                "--kafka-controller-port", String.valueOf(ports.get(1)),
                "--postgres-port", String.valueOf(ports.get(2))));
        return ChildProcess.start("dev-infra", command, dir.resolve("dev-infra.log"), "READY");
    }

    /** Closing stdin stops everything: afterwards every port is free again. */
    private static void down(ChildProcess dev, List<Integer> ports) {
        dev.stopGracefully(Duration.ofSeconds(60));
        assertThat(dev.isAlive()).isFalse();
        assertThat(dev.tail()).contains("stopped Kafka and PostgreSQL");
        for (int port : ports) {
            assertThatCode(() -> Ports.requireFree(port, "dev infra", "-")).doesNotThrowAnyException();
        }
    }

    private static String sql(String jdbcUrl, String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
             Statement statement = connection.createStatement()) {
            if (!statement.execute(sql)) {
                return null;
            }
            try (ResultSet result = statement.getResultSet()) {
                return result.next() ? result.getString(1) : null;
            }
        }
    }

    private static long endOffset(String bootstrap, TopicPartition partition) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition)
                    .get(30, TimeUnit.SECONDS).offset();
        }
    }
}
