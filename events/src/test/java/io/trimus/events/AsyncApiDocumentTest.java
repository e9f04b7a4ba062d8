package io.trimus.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The AsyncAPI document outside consumers read names the real topics, types and schema files. */
class AsyncApiDocumentTest {
    private static JsonNode doc;

    @BeforeAll
    static void read() throws IOException {
        try (InputStream in = AsyncApiDocumentTest.class.getClassLoader().getResourceAsStream(EventSchemas.ASYNCAPI)) {
            assertThat(in).as(EventSchemas.ASYNCAPI).isNotNull();
            doc = new ObjectMapper(new YAMLFactory()).readTree(in);
        }
    }

    @Test
    void isAnAsyncApi3Document() {
        assertThat(doc.path("asyncapi").asText()).isEqualTo("3.0.0");
        assertThat(doc.path("info").path("title").asText()).isNotBlank();
        assertThat(doc.path("info").path("version").asText()).isNotBlank();
    }

    @Test
    void describesEveryTopic() {
        List<String> addresses = new ArrayList<>();
        doc.path("channels").forEach(channel -> addresses.add(channel.path("address").asText()));

        assertThat(addresses).containsExactlyInAnyOrder(Topics.RUN_REQUESTED, Topics.RUN_STATUS, Topics.RUN_CANCEL,
                Topics.REMOTE_TASKS, Topics.WORKER_HEARTBEATS, Topics.ADAPTER_LEASES, Topics.EGRESS_ANOMALIES,
                Topics.EGRESS_CANARY_REQUESTS, Topics.EGRESS_CANARY_RESULTS, Topics.AUDIT);
    }

    @Test
    void eachTopicCarriesItsEventTypeAndSchema() {
        assertCarries(messageOn(Topics.RUN_REQUESTED), EventTypes.RUN_REQUESTED);
        assertCarries(messageOn(Topics.RUN_STATUS), EventTypes.RUN_STATUS);
        assertCarries(messageOn(Topics.RUN_CANCEL), EventTypes.RUN_CANCEL);
        assertCarries(messageOn(Topics.EGRESS_ANOMALIES), EventTypes.EGRESS_ANOMALY);
        assertCarries(messageOn(Topics.EGRESS_CANARY_REQUESTS), EventTypes.EGRESS_CANARY_REQUESTED);
        assertCarries(messageOn(Topics.EGRESS_CANARY_RESULTS), EventTypes.EGRESS_CANARY_RESULT);
        assertCarries(messageOn(Topics.REMOTE_TASKS), EventTypes.REMOTE_TASK);
        assertCarries(messageOn(Topics.WORKER_HEARTBEATS), EventTypes.WORKER_HEARTBEAT);
        assertCarries(messageOn(Topics.ADAPTER_LEASES), EventTypes.ADAPTER_LEASE);
        assertCarries(messageOn(Topics.AUDIT), EventTypes.AUDIT_RECORD);
    }

    @Test
    void everyReferencedSchemaFileExists() {
        List<String> files = new ArrayList<>();
        doc.at("/components/messages").forEach(m -> files.add(m.at("/payload/schema/$ref").asText()));

        assertThat(files).hasSize(10).allSatisfy(ref -> {
            assertThat(ref).startsWith("./schemas/");
            assertThat(getClass().getClassLoader().getResource(ref.substring(2))).as(ref).isNotNull();
        });
    }

    @Test
    void cloudEventsTravelInBinaryMode() {
        JsonNode headers = doc.at("/components/schemas/CloudEventHeaders");

        assertThat(headers.path("required")).extracting(JsonNode::asText)
                .contains("ce_id", "ce_type", "ce_source", "ce_specversion");
        assertThat(headers.at("/properties/ce_specversion/const").asText()).isEqualTo("1.0");
        doc.at("/components/messages").forEach(m ->
                assertThat(m.at("/headers/allOf/0/$ref").asText()).isEqualTo("#/components/schemas/CloudEventHeaders"));
    }

    @Test
    void runEventsAreKeyedByRunAndAnomaliesByCompany() {
        assertThat(keyOf(Topics.RUN_REQUESTED)).isEqualTo("#/components/schemas/RunIdKey");
        assertThat(keyOf(Topics.RUN_STATUS)).isEqualTo("#/components/schemas/RunIdKey");
        assertThat(keyOf(Topics.RUN_CANCEL)).isEqualTo("#/components/schemas/RunIdKey");
        assertThat(keyOf(Topics.EGRESS_ANOMALIES)).isEqualTo("#/components/schemas/CompanyIdKey");
        assertThat(keyOf(Topics.REMOTE_TASKS)).isEqualTo("#/components/schemas/RunIdKey");
        assertThat(keyOf(Topics.WORKER_HEARTBEATS)).isEqualTo("#/components/schemas/WorkerIdKey");
        assertThat(keyOf(Topics.AUDIT)).isEqualTo("#/components/schemas/AuditKey");
        assertThat(keyOf(Topics.ADAPTER_LEASES)).isEqualTo("#/components/schemas/InstanceKey");
        assertThat(doc.at("/components/schemas/AuditKey/anyOf/1/const").asText()).isEqualTo(AuditRecord.PLATFORM_KEY);
        assertThat(doc.at("/components/schemas/RunIdKey/format").asText()).isEqualTo("uuid");
        assertThat(doc.at("/components/schemas/CompanyIdKey/anyOf/0/format").asText()).isEqualTo("uuid");
        assertThat(doc.at("/components/schemas/CompanyIdKey/anyOf/1/const").asText()).isEqualTo("unattributed");
    }

    @Test
    void theAnomalyChannelTellsOutsideConsumersOfTheProxyReasons() {
        String description = doc.at("/channels/egressAnomalies/description").asText();

        assertThat(description).contains(EgressAnomaly.PROXY_NOT_ALLOWLISTED, EgressAnomaly.PROXY_ADDRESS_DENIED,
                EgressAnomaly.PROXY_PORT_DENIED, EgressAnomaly.PROXY_HOST_MISMATCH,
                EgressAnomaly.PROXY_MALFORMED_REQUEST, EgressAnomaly.PROXY_ENCRYPTED_CLIENT_HELLO,
                EgressAnomaly.MASKED_REQUEST_REFUSED);
    }

    @Test
    void everyOperationPointsAtAChannelThatExists() {
        doc.path("operations").forEach(op -> {
            String ref = op.at("/channel/$ref").asText();
            assertThat(ref).startsWith("#/channels/");
            assertThat(doc.at(ref.substring(1)).isObject()).as(ref).isTrue();
        });
        assertThat(doc.path("operations")).hasSize(10);
    }

    private static JsonNode messageOn(String topic) {
        for (JsonNode channel : doc.path("channels")) {
            if (channel.path("address").asText().equals(topic)) {
                JsonNode ref = channel.path("messages").elements().next();
                return doc.at(ref.path("$ref").asText().substring(1));
            }
        }
        throw new AssertionError("no channel for " + topic);
    }

    private static String keyOf(String topic) {
        return messageOn(topic).at("/bindings/kafka/key/$ref").asText();
    }

    private static void assertCarries(JsonNode message, String type) {
        assertThat(message.path("name").asText()).isEqualTo(type);
        assertThat(message.at("/headers/allOf/1/properties/ce_type/const").asText()).isEqualTo(type);
        assertThat(message.at("/payload/schema/$ref").asText()).isEqualTo("./" + EventSchemas.resourcePath(type));
    }
}
