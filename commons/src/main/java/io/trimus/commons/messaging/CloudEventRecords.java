package io.trimus.commons.messaging;

import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The one way a Trimus service writes a CloudEvent to Kafka: binary mode, JSON data, the event's own id and time,
 * the aggregate as subject, and the Kafka key that keeps one aggregate's events ordered.
 */
public final class CloudEventRecords {
    static final String JSON = "application/json";

    private CloudEventRecords() {
    }

    /** The {@code trimus/<service>} source every event of one service carries. */
    public static URI source(String service) {
        return URI.create("trimus/" + Objects.requireNonNull(service, "service"));
    }

    /**
     * A message carrying {@code payload} as CloudEvent {@code type} with id, source, subject and time, keyed by
     * {@code key} on Kafka. Subject and key differ only where the topic is partitioned by something other than the
     * aggregate ({@code keyedBy}).
     */
    public static <T> Message<T> message(T payload, Envelope envelope) {
        return Message.of(payload)
                .addMetadata(OutgoingCloudEventMetadata.builder()
                        .withId(envelope.id())
                        .withType(envelope.type())
                        .withSource(envelope.source())
                        .withSubject(envelope.subject())
                        .withDataContentType(JSON)
                        .withTimestamp(envelope.time().atZone(ZoneOffset.UTC))
                        .build())
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(envelope.key()).build());
    }

    /** What one record says about its event besides the data. */
    public record Envelope(String id, String type, URI source, String subject, String key, Instant time) {
        public Envelope {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(time, "time");
        }

        /** The usual case: the aggregate id is both subject and Kafka key. */
        public static Envelope of(Object id, String type, URI source, String aggregate, Instant time) {
            return new Envelope(String.valueOf(id), type, source, aggregate, aggregate, time);
        }

        /** The same event keyed by something other than its subject. */
        public Envelope keyedBy(String otherKey) {
            return new Envelope(id, type, source, subject, otherKey, time);
        }
    }
}
