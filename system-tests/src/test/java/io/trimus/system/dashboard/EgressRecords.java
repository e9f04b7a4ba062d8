package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * Egress data for the real egress-service, put where its own parts put it: connection records straight into
 * {@code egress.egress_connection} (the proxy's recorder is the only writer, and a test cannot steer a sandbox's
 * traffic to 40 chosen hosts at chosen hours), anomalies as events on {@code trimus.egress.anomalies} for its
 * consumer to store.
 */
final class EgressRecords {
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private EgressRecords() {
    }

    /**
     * One ended connection of a sandbox through the egress proxy; {@code maskedSwaps} the JSON the proxy records of
     * the masked secrets it swapped in ({@code {"GITHUB_TOKEN": 3}}), null when none.
     */
    record Conn(String host, int port, String decision, String reason, long bytesOut, long bytesIn,
                Instant startedAt, String maskedSwaps) {
        static Conn allowed(String host, int port, long bytesOut, long bytesIn, Instant startedAt) {
            return new Conn(host, port, "allowed", "-", bytesOut, bytesIn, startedAt, null);
        }

        static Conn refused(String host, int port, String reason, Instant startedAt) {
            return new Conn(host, port, "refused", reason, 0, 0, startedAt, null);
        }

        /** The same connection with masked secrets swapped in. */
        Conn swapped(String json) {
            return new Conn(host, port, decision, reason, bytesOut, bytesIn, startedAt, json);
        }
    }

    /** Stores {@code connections} of {@code run} of {@code company} as the connection recorder does, in one batch. */
    static void record(String company, String run, List<Conn> connections) {
        try (Connection db = DriverManager.getConnection(Stack.config(SystemStack.JDBC_KEY), "postgres",
                "postgres");
             PreparedStatement insert = db.prepareStatement("""
                     insert into egress.egress_connection (company_id, run_id, agent_id, sandbox_ip, way, host, port,
                         address, decision, reason, enforced, bytes_out, bytes_in, started_at, duration_ms,
                         masked_swaps)
                     values (?, ?, null, '10.199.96.9', 'explicit', ?, ?, ?, ?, ?, true, ?, ?, ?, 120,
                         cast(? as jsonb))""")) {
            for (Conn c : connections) {
                insert.setObject(1, UUID.fromString(company));
                insert.setObject(2, UUID.fromString(run));
                insert.setString(3, c.host());
                insert.setInt(4, c.port());
                insert.setString(5, c.decision().equals("allowed") ? "203.0.113.7" : null);
                insert.setString(6, c.decision());
                insert.setString(7, c.reason());
                insert.setLong(8, c.bytesOut());
                insert.setLong(9, c.bytesIn());
                insert.setTimestamp(10, Timestamp.from(c.startedAt()));
                insert.setString(11, c.maskedSwaps());
                insert.addBatch();
            }
            insert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * An anomaly of a sandbox of {@code company} ({@code run} may be null): {@code count} denials of {@code qname}
     * up to {@code lastSeen}; {@code enforced} false for what report mode let through.
     */
    static EgressAnomaly anomaly(String company, String run, String qname, String qtype, String reason, long count,
                                 Instant lastSeen, boolean enforced) {
        Instant last = lastSeen.truncatedTo(ChronoUnit.MICROS);
        return new EgressAnomaly(UUID.randomUUID(), UUID.fromString(company), null,
                run == null ? null : UUID.fromString(run), null, "10.199.96.20", qname, qtype, reason, count,
                last.minusSeconds(5), last, enforced);
    }

    /**
     * Publishes the events as the resolver and the proxy do (binary-mode CloudEvents keyed by company) and waits
     * until egress-service has stored every one of them.
     */
    static void publish(EgressAnomaly... events) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Stack.config("kafka.bootstrap.servers"),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
            for (EgressAnomaly event : events) {
                producer.send(record(event)).get(30, TimeUnit.SECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot publish to " + Topics.EGRESS_ANOMALIES, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        for (EgressAnomaly event : events) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> stored(event.companyId()).contains(event.id().toString()));
        }
    }

    private static List<String> stored(UUID company) {
        return Stack.egressService().queryParam("limit", 100)
                .get("/api/companies/{c}/egress/anomalies", company).then().statusCode(200)
                .extract().jsonPath().getList("id", String.class);
    }

    private static ProducerRecord<String, String> record(EgressAnomaly event) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("ce_specversion", utf8("1.0"));
        headers.add("ce_id", utf8(event.id().toString()));
        headers.add("ce_type", utf8(EventTypes.EGRESS_ANOMALY));
        headers.add("ce_source", utf8("trimus/egress-service"));
        headers.add("ce_subject", utf8(event.companyId().toString()));
        headers.add("content-type", utf8("application/json"));
        try {
            return new ProducerRecord<>(Topics.EGRESS_ANOMALIES, null, event.companyId().toString(),
                    JSON.writeValueAsString(event), headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
