package io.trimus.egress.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.config.ConfigProvider;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/** Writes {@code trimus.egress.anomalies} on the real broker the way the resolver's publisher does. */
final class AnomalyTopic implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final KafkaCompanion companion;

    AnomalyTopic() {
        companion = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    /** A not_allowlisted anomaly of a sandbox of {@code company}, last seen at {@code lastSeen}. */
    static EgressAnomaly anomaly(UUID company, String qname, long count, Instant lastSeen) {
        // PostgreSQL keeps microseconds: events carry no finer times, so what the API returns equals what was sent
        Instant last = lastSeen.truncatedTo(ChronoUnit.MICROS);
        return new EgressAnomaly(UUID.randomUUID(), company, UUID.randomUUID(), UUID.randomUUID(), "c0ffee" + count,
                "172.30.0.17", qname, "A", EgressAnomaly.NOT_ALLOWLISTED, count, last.minusSeconds(5), last, true);
    }

    static EgressAnomaly anomaly(UUID company, String qname) {
        return anomaly(company, qname, 1, Instant.now());
    }

    /** Publishes the events as CloudEvents in binary mode, keyed by company, and waits until the broker has them. */
    void publish(List<EgressAnomaly> events) {
        List<ProducerRecord<String, String>> records = events.stream().map(AnomalyTopic::record).toList();
        companion.produceStrings().fromRecords(records).awaitCompletion(Duration.ofSeconds(60));
    }

    void publish(EgressAnomaly... events) {
        publish(List.of(events));
    }

    /** Publishes a raw record value, e.g. one that is no anomaly at all. */
    void publishRaw(String key, String value) {
        companion.produceStrings().fromRecords(new ProducerRecord<>(Topics.EGRESS_ANOMALIES, key, value))
                .awaitCompletion(Duration.ofSeconds(60));
    }

    private static ProducerRecord<String, String> record(EgressAnomaly event) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("ce_specversion", utf8("1.0"));
        headers.add("ce_id", utf8(event.id().toString()));
        headers.add("ce_type", utf8(EventTypes.EGRESS_ANOMALY));
        headers.add("ce_source", utf8("trimus/egress-service"));
        headers.add("ce_subject", utf8(event.companyId() == null ? "unattributed" : event.companyId().toString()));
        headers.add("content-type", utf8("application/json"));
        String key = event.companyId() == null ? "unattributed" : event.companyId().toString();
        try {
            return new ProducerRecord<>(Topics.EGRESS_ANOMALIES, null, key, JSON.writeValueAsString(event), headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        companion.close();
    }
}
