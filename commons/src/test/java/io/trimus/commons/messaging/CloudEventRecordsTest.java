package io.trimus.commons.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

class CloudEventRecordsTest {
    private static final Instant AT = Instant.parse("2026-12-01T10:15:30.123Z");

    @Test
    void aMessageCarriesEveryCloudEventAttributeAndTheAggregateAsKey() {
        UUID id = UUID.randomUUID();
        var envelope = CloudEventRecords.Envelope.of(id, "io.trimus.run.status.v1",
                CloudEventRecords.source("adapter-lambda-service"), "run-1", AT);

        Message<String> message = CloudEventRecords.message("{}", envelope);

        @SuppressWarnings("unchecked")
        OutgoingCloudEventMetadata<Object> ce = message.getMetadata(OutgoingCloudEventMetadata.class).orElseThrow();
        assertThat(ce.getId()).isEqualTo(id.toString());
        assertThat(ce.getType()).isEqualTo("io.trimus.run.status.v1");
        assertThat(ce.getSource().toString()).isEqualTo("trimus/adapter-lambda-service");
        assertThat(ce.getSubject()).contains("run-1");
        assertThat(ce.getDataContentType()).contains("application/json");
        assertThat(ce.getTimeStamp()).contains(AT.atZone(ZoneOffset.UTC));
        assertThat(message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow().getKey()).isEqualTo("run-1");
        assertThat(message.getPayload()).isEqualTo("{}");
    }

    @Test
    void aRecordKeyedByAnotherValueKeepsItsSubject() {
        var envelope = CloudEventRecords.Envelope.of("e1", "io.trimus.remote.task.v1",
                CloudEventRecords.source("adapter-lambda-service"), "run-7", AT).keyedBy("gpu");

        Message<String> message = CloudEventRecords.message("{}", envelope);

        assertThat(message.getMetadata(OutgoingCloudEventMetadata.class).orElseThrow().getSubject()).contains("run-7");
        assertThat(message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow().getKey()).isEqualTo("gpu");
    }

    @Test
    void anEnvelopeWithoutAKeyIsRefused() {
        assertThatThrownBy(() -> new CloudEventRecords.Envelope("e", "t",
                CloudEventRecords.source("x"), "s", null, AT)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("key");
    }
}
