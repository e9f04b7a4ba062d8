package io.trimus.egress.anomaly;

import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.EventTypes;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaAnomalyPublisherTest {

    @Test
    void attributedAnomalyIsACloudEventKeyedByCompany() {
        UUID company = UUID.randomUUID();
        EgressAnomaly anomaly = anomaly(company, "not_allowlisted");

        Message<EgressAnomaly> message = KafkaAnomalyPublisher.message(anomaly);

        OutgoingCloudEventMetadata<?> cloudEvent = message.getMetadata(OutgoingCloudEventMetadata.class).orElseThrow();
        assertThat(cloudEvent.getId()).isEqualTo(anomaly.id().toString());
        assertThat(cloudEvent.getType()).isEqualTo(EventTypes.EGRESS_ANOMALY);
        assertThat(cloudEvent.getSource()).hasToString("trimus/egress-service");
        assertThat(message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow().getKey())
                .isEqualTo(company.toString());
        assertThat(message.getPayload()).isSameAs(anomaly);
    }

    @Test
    void unattributedAnomalyIsKeyedUnattributed() {
        Message<EgressAnomaly> message = KafkaAnomalyPublisher.message(anomaly(null, "unattributed_source"));

        assertThat(message.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow().getKey())
                .isEqualTo("unattributed");
    }

    private static EgressAnomaly anomaly(UUID company, String reason) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return new EgressAnomaly(UUID.randomUUID(), company, null, null, null, "172.30.0.5", "exfil.example", "A",
                reason, 3, now, now.plusSeconds(2), true);
    }
}
