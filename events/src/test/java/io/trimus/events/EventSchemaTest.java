package io.trimus.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.util.Map;

/** The JSON Schemas describe exactly what the records put on the wire, and refuse what breaks the contract. */
class EventSchemaTest {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    // draft 2020-12 treats "format" as an annotation unless told otherwise; the contract means it
    private static final SchemaValidatorsConfig ASSERT_FORMATS = SchemaValidatorsConfig.builder()
            .formatAssertionsEnabled(true)
            .build();

    static Stream<Arguments> everyEvent() {
        return Stream.of(
                Arguments.of(EventTypes.RUN_REQUESTED, Fixtures.runRequested()),
                Arguments.of(EventTypes.RUN_STATUS, Fixtures.terminalStatus()),
                Arguments.of(EventTypes.RUN_STATUS, Fixtures.cliStatus()),
                Arguments.of(EventTypes.RUN_STATUS, RunStatusChanged.progress(UUID.randomUUID(), UUID.randomUUID(),
                        UUID.randomUUID(), RunState.RUNNING)),
                Arguments.of(EventTypes.RUN_CANCEL, Fixtures.cancel()),
                Arguments.of(EventTypes.REMOTE_TASK, Fixtures.remoteTask()),
                Arguments.of(EventTypes.WORKER_HEARTBEAT, Fixtures.heartbeat()),
                Arguments.of(EventTypes.WORKER_HEARTBEAT, WorkerHeartbeat.now("idle-worker", List.of("gpu"),
                        java.time.Duration.ofSeconds(5), List.of())),
                Arguments.of(EventTypes.ADAPTER_LEASE, Fixtures.lease()),
                Arguments.of(EventTypes.ADAPTER_LEASE, AdapterLease.observer("run-service-1",
                        java.time.Duration.ofSeconds(2))),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.egressAnomaly()),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.unattributedAnomaly()),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.proxyAnomaly(EgressAnomaly.PROXY_HOST_MISMATCH)),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.reportedAnomaly()),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.requestAnomaly()),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.tunnellingAnomaly()),
                Arguments.of(EventTypes.EGRESS_CANARY_REQUESTED, Fixtures.canaryRequested()),
                Arguments.of(EventTypes.EGRESS_CANARY_RESULT, Fixtures.canaryResult()),
                Arguments.of(EventTypes.EGRESS_CANARY_RESULT, Fixtures.canaryThatCouldNotRun()),
                Arguments.of(EventTypes.AUDIT_RECORD, Fixtures.auditRecord()),
                Arguments.of(EventTypes.AUDIT_RECORD, Fixtures.platformAuditRecord()));
    }

    static Stream<Arguments> requiredFields() {
        return Stream.of(
                Arguments.of(EventTypes.RUN_REQUESTED, Fixtures.runRequested(), List.of("id", "run_id", "company_id",
                        "agent_id", "adapter_type", "adapter_config", "requested_at")),
                Arguments.of(EventTypes.RUN_STATUS, Fixtures.terminalStatus(), List.of("id", "run_id", "company_id",
                        "agent_id", "status", "occurred_at")),
                Arguments.of(EventTypes.RUN_CANCEL, Fixtures.cancel(), List.of("id", "run_id", "company_id",
                        "requested_at")),
                Arguments.of(EventTypes.REMOTE_TASK, Fixtures.remoteTask(), List.of("id", "run_id", "worker_tag",
                        "claim_by", "dispatched_at", "request", "mac")),
                Arguments.of(EventTypes.WORKER_HEARTBEAT, Fixtures.heartbeat(), List.of("id", "worker_id", "tags",
                        "last_seen", "heartbeat_interval_ms", "running", "run_ids")),
                Arguments.of(EventTypes.ADAPTER_LEASE, Fixtures.lease(), List.of("id", "instance", "role", "sent_at",
                        "interval_ms", "held", "started")),
                Arguments.of(EventTypes.EGRESS_ANOMALY, Fixtures.unattributedAnomaly(), List.of("id", "source_ip",
                        "qname", "qtype", "reason", "count", "first_seen", "last_seen")),
                Arguments.of(EventTypes.EGRESS_CANARY_REQUESTED, Fixtures.canaryRequested(), List.of("id",
                        "canary_id", "company_id", "unlisted_name", "ip_literal", "unlisted_port", "requested_at")),
                Arguments.of(EventTypes.EGRESS_CANARY_RESULT, Fixtures.canaryResult(), List.of("id", "canary_id",
                        "company_id", "checks", "finished_at")),
                Arguments.of(EventTypes.AUDIT_RECORD, Fixtures.platformAuditRecord(), List.of("id", "occurred_at",
                        "actor", "company_id", "action", "target", "details", "source")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyEvent")
    void whatTheRecordsPublishValidatesAgainstItsSchema(String type, Object event) {
        assertThat(validate(type, Json.tree(event))).isEmpty();
    }

    @Test
    void aRunRequestWithoutIssueOrInputValidates() {
        RunRequested full = Fixtures.runRequested();
        RunRequested bare = new RunRequested(full.id(), full.runId(), full.companyId(), full.agentId(),
                full.adapterType(), full.adapterConfig(), null, null, full.requestedAt(), Map.of(), null, Map.of());

        assertThat(validate(EventTypes.RUN_REQUESTED, Json.tree(bare))).isEmpty();
    }

    @ParameterizedTest(name = "{0} without {2}")
    @MethodSource("eachRequiredField")
    void anEventMissingARequiredFieldIsRefused(String type, Object event, String field) {
        ObjectNode json = Json.tree(event);
        json.remove(field);

        assertThat(validate(type, json)).extracting(ValidationMessage::getMessage)
                .anySatisfy(message -> assertThat(message).contains("required").contains(field));
    }

    static Stream<Arguments> eachRequiredField() {
        return requiredFields().flatMap(a -> ((List<?>) a.get()[2]).stream()
                .map(field -> Arguments.of(a.get()[0], a.get()[1], field)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requiredFields")
    void theSchemaRequiresExactlyTheFieldsEveryPublisherSets(String type, Object event, List<String> required) {
        assertThat(schemaJson(type).get("required")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrderElementsOf(required);
    }

    @ParameterizedTest
    @ValueSource(strings = {"DONE", "running", ""})
    void aStatusThatIsNoRunStateIsRefused(String status) {
        ObjectNode json = Json.tree(Fixtures.terminalStatus());
        json.put("status", status);

        assertThat(validate(EventTypes.RUN_STATUS, json)).isNotEmpty();
    }

    @Test
    void theStatusEnumIsExactlyTheRunStates() {
        List<String> states = Arrays.stream(RunState.values()).map(Enum::name).toList();

        assertThat(schemaJson(EventTypes.RUN_STATUS).at("/properties/status/enum")).extracting(JsonNode::asText)
                .containsExactlyElementsOf(states);
    }

    @Test
    void aTaskCarriesTheRequestAsTheRunRequestSchemaDescribesIt() {
        JsonNode request = Json.tree(Fixtures.remoteTask()).get("request");

        assertThat(validate(EventTypes.RUN_REQUESTED, request)).isEmpty();
        assertThat(request.get("secrets").get("ANTHROPIC_API_KEY").asText()).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-gpu", "gpu tag", "gpu/eu"})
    void aTaskWhoseTagIsNoTagIsRefused(String tag) {
        ObjectNode json = Json.tree(Fixtures.remoteTask());
        json.put("worker_tag", tag);

        assertThat(validate(EventTypes.REMOTE_TASK, json)).isNotEmpty();
    }

    @Test
    void aHeartbeatIsLiveForThreeIntervalsAfterItArrived() {
        WorkerHeartbeat beat = Fixtures.heartbeat();
        java.time.Instant arrived = java.time.Instant.parse("2026-01-15T10:00:00Z");

        assertThat(beat.liveAt(arrived, arrived.plusMillis(14_999))).isTrue();
        assertThat(beat.liveAt(arrived, arrived.plusMillis(15_000))).isFalse();
    }

    @Test
    void anIdThatIsNoUuidIsRefused() {
        ObjectNode json = Json.tree(Fixtures.cancel());
        json.put("run_id", "run-1");

        assertThat(validate(EventTypes.RUN_CANCEL, json)).extracting(ValidationMessage::getInstanceLocation)
                .extracting(Object::toString).containsExactly("/run_id");
    }

    @Test
    void aTimestampThatIsNoDateTimeIsRefused() {
        ObjectNode json = Json.tree(Fixtures.terminalStatus());
        json.put("occurred_at", 1768469400);
        ObjectNode text = Json.tree(Fixtures.terminalStatus());
        text.put("occurred_at", "15.01.2026 09:30");

        assertThat(validate(EventTypes.RUN_STATUS, json)).isNotEmpty();
        assertThat(validate(EventTypes.RUN_STATUS, text)).isNotEmpty();
    }

    @Test
    void aFractionalExitCodeIsRefused() {
        ObjectNode json = Json.tree(Fixtures.terminalStatus());
        json.put("exit_code", 1.5);

        assertThat(validate(EventTypes.RUN_STATUS, json)).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"denied", "NOT_ALLOWLISTED", ""})
    void anAnomalyReasonThatIsNoKnownReasonIsRefused(String reason) {
        ObjectNode json = Json.tree(Fixtures.egressAnomaly());
        json.put("reason", reason);

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isNotEmpty();
    }

    @Test
    void theAnomalyReasonEnumIsExactlyTheRecordsReasons() {
        assertThat(schemaJson(EventTypes.EGRESS_ANOMALY).at("/properties/reason/enum")).extracting(JsonNode::asText)
                .containsExactlyElementsOf(EgressAnomaly.REASONS);
        assertThat(EgressAnomaly.REASONS).containsExactlyInAnyOrder(EgressAnomaly.NOT_ALLOWLISTED,
                EgressAnomaly.QTYPE_DENIED, EgressAnomaly.UNATTRIBUTED_SOURCE, EgressAnomaly.PROXY_NOT_ALLOWLISTED,
                EgressAnomaly.PROXY_ADDRESS_DENIED, EgressAnomaly.PROXY_PORT_DENIED, EgressAnomaly.PROXY_HOST_MISMATCH,
                EgressAnomaly.PROXY_MALFORMED_REQUEST, EgressAnomaly.PROXY_ENCRYPTED_CLIENT_HELLO,
                EgressAnomaly.MASKED_SECRET_OUT_OF_SCOPE, EgressAnomaly.MASKED_REQUEST_REFUSED,
                EgressAnomaly.PROXY_REQUEST_DENIED, EgressAnomaly.AGENT_NOT_ALLOWLISTED,
                EgressAnomaly.PROXY_AGENT_NOT_ALLOWLISTED, EgressAnomaly.SUSPECTED_TUNNELLING,
                EgressAnomaly.CANARY_BREACH);
    }

    @Test
    void aRequestAnomalyCarriesMethodAndPathAndOthersLeaveThemOut() {
        ObjectNode json = Json.tree(Fixtures.requestAnomaly());

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isEmpty();
        assertThat(json.path("method").asText()).isEqualTo("POST");
        assertThat(json.path("path").asText()).isEqualTo("/repos/evil/x/git/refs");
        assertThat(Json.tree(Fixtures.proxyAnomaly(EgressAnomaly.PROXY_PORT_DENIED)).has("method")).isFalse();
        json.put("path", "/" + "a".repeat(512));
        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"proxy_not_allowlisted", "proxy_address_denied", "proxy_port_denied",
            "proxy_host_mismatch", "proxy_malformed_request", "proxy_encrypted_client_hello",
            "masked_secret_out_of_scope", "masked_request_refused"})
    void aRefusedProxyConnectionIsAnAnomalyOfTheSameShape(String reason) {
        ObjectNode json = Json.tree(Fixtures.proxyAnomaly(reason));

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isEmpty();
        assertThat(fieldNames(json)).isEqualTo(fieldNames(Json.tree(Fixtures.egressAnomaly())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"CONNECT", "TLS", "HTTP"})
    void aProxyAnomalyNamesHowTheConnectionCameInAsItsQtype(String way) {
        ObjectNode json = Json.tree(Fixtures.proxyAnomaly(EgressAnomaly.PROXY_PORT_DENIED));
        json.put("qtype", way);
        json.put("qname", "api.example.com:8443");

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isEmpty();
    }

    @Test
    void enforcedIsAnOptionalBooleanThatDefaultsToTrue() {
        JsonNode enforced = schemaJson(EventTypes.EGRESS_ANOMALY).at("/properties/enforced");
        ObjectNode json = Json.tree(Fixtures.reportedAnomaly());

        assertThat(enforced.path("default").asBoolean(false)).isTrue();
        assertThat(schemaJson(EventTypes.EGRESS_ANOMALY).path("required")).extracting(JsonNode::asText)
                .doesNotContain("enforced");
        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isEmpty();
        assertThat(validate(EventTypes.EGRESS_ANOMALY, json.put("enforced", "no"))).isNotEmpty();
    }

    @Test
    void everyExampleOfTheAnomalySchemaIsValidAndTheProxyReasonsHaveOne() {
        JsonNode examples = schemaJson(EventTypes.EGRESS_ANOMALY).path("examples");

        examples.forEach(example -> assertThat(validate(EventTypes.EGRESS_ANOMALY, example))
                .as(example.toString()).isEmpty());
        assertThat(examples).extracting(e -> e.path("reason").asText()).contains("proxy_address_denied");
    }

    @Test
    void theAuditActionEnumIsExactlyTheRecordsActions() {
        assertThat(schemaJson(EventTypes.AUDIT_RECORD).at("/properties/action/enum")).extracting(JsonNode::asText)
                .containsExactlyElementsOf(AuditRecord.ACTIONS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent.deleted", "SECRET_PUT", ""})
    void anAuditActionOutsideTheListIsRefused(String action) {
        ObjectNode json = Json.tree(Fixtures.auditRecord());
        json.put("action", action);

        assertThat(validate(EventTypes.AUDIT_RECORD, json)).isNotEmpty();
    }

    @Test
    void aPlatformRecordHasANullCompanyAndIsKeyedPlatform() {
        AuditRecord record = Fixtures.platformAuditRecord();
        ObjectNode json = Json.tree(record);

        assertThat(json.get("company_id").isNull()).isTrue();
        assertThat(json.has("key")).isFalse();
        assertThat(record.key()).isEqualTo(AuditRecord.PLATFORM_KEY);
        AuditRecord ofCompany = Fixtures.auditRecord();
        assertThat(ofCompany.key()).isEqualTo(ofCompany.companyId().toString());
    }

    @Test
    void anAuditSourceIsBoundedAndPrintable() {
        AuditRecord.Source source = AuditRecord.Source.of("10.0.0.1", "1.2.3.4, ".repeat(100), "agent\r\nInjected: x");

        assertThat(source.forwardedFor()).hasSize(AuditRecord.Source.MAX_FORWARDED_FOR);
        assertThat(source.userAgent()).isEqualTo("agent??Injected: x");
        assertThat(validate(EventTypes.AUDIT_RECORD, Json.tree(new AuditRecord(UUID.randomUUID(), Fixtures.AT,
                AuditRecord.Actor.TRIMUS, null, AuditRecord.SECRET_DELETED, new AuditRecord.Target("secret", null, "X"),
                null, source)))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -3})
    void anAnomalyThatCountsNoLookupIsRefused(long count) {
        ObjectNode json = Json.tree(Fixtures.egressAnomaly());
        json.put("count", count);

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).extracting(ValidationMessage::getInstanceLocation)
                .extracting(Object::toString).containsExactly("/count");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sandbox-17", "172.30.0", "300.1.2.3", ""})
    void anAnomalySourceThatIsNoIpAddressIsRefused(String sourceIp) {
        ObjectNode json = Json.tree(Fixtures.egressAnomaly());
        json.put("source_ip", sourceIp);

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"172.30.0.17", "fd00:30::17", "fd00:30:0:0:0:0:0:17"})
    void anAnomalySourceMayBeIpv4OrIpv6(String sourceIp) {
        ObjectNode json = Json.tree(Fixtures.egressAnomaly());
        json.put("source_ip", sourceIp);

        assertThat(validate(EventTypes.EGRESS_ANOMALY, json)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyEvent")
    void aFieldAddedByALaterProducerIsAccepted(String type, Object event) {
        ObjectNode json = Json.tree(event);
        json.put("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736");

        assertThat(validate(type, json)).isEmpty();
    }

    @Test
    void theSchemaPropertiesAreExactlyTheFieldsTheRecordsWrite() {
        assertThat(fieldNames(schemaJson(EventTypes.RUN_REQUESTED).get("properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.runRequested())));
        java.util.Set<String> statusFields = new java.util.TreeSet<>(fieldNames(Json.tree(Fixtures.terminalStatus())));
        statusFields.addAll(fieldNames(Json.tree(Fixtures.cliStatus())));
        assertThat(fieldNames(schemaJson(EventTypes.RUN_STATUS).get("properties"))).containsExactlyInAnyOrderElementsOf(
                statusFields);
        assertThat(fieldNames(schemaJson(EventTypes.RUN_STATUS).at("/properties/usage/properties")))
                .as("every usage field written is declared, nothing else (no derived getters)")
                .containsExactlyInAnyOrderElementsOf(fieldNames(Json.tree(new RunUsage(1L, 2L, 3L, 4L, 5L,
                        java.math.BigDecimal.ONE, "m", 6L, 7))));
        assertThat(fieldNames(schemaJson(EventTypes.RUN_CANCEL).get("properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.cancel())));
        java.util.Set<String> anomalyFields = new java.util.TreeSet<>(fieldNames(Json.tree(Fixtures.requestAnomaly())));
        anomalyFields.addAll(fieldNames(Json.tree(Fixtures.tunnellingAnomaly())));
        assertThat(fieldNames(schemaJson(EventTypes.EGRESS_ANOMALY).get("properties")))
                .containsExactlyInAnyOrderElementsOf(anomalyFields);
        assertThat(fieldNames(schemaJson(EventTypes.REMOTE_TASK).get("properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.remoteTask())));
        assertThat(fieldNames(schemaJson(EventTypes.WORKER_HEARTBEAT).get("properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.heartbeat())));
        assertThat(fieldNames(schemaJson(EventTypes.ADAPTER_LEASE).get("properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.lease())));
        assertThat(fieldNames(schemaJson(EventTypes.AUDIT_RECORD).get("properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.platformAuditRecord())));
        assertThat(fieldNames(schemaJson(EventTypes.AUDIT_RECORD).at("/$defs/actor/properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.platformAuditRecord()).get("actor")));
        assertThat(fieldNames(schemaJson(EventTypes.AUDIT_RECORD).at("/$defs/target/properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.platformAuditRecord()).get("target")));
        assertThat(fieldNames(schemaJson(EventTypes.AUDIT_RECORD).at("/$defs/source/properties")))
                .isEqualTo(fieldNames(Json.tree(Fixtures.platformAuditRecord()).get("source")));
        assertThat(fieldNames(schemaJson(EventTypes.RUN_REQUESTED).at("/$defs/issue_ref/properties")))
                .isEqualTo(fieldNames(Json.tree(new IssueRef("1", "t", "b"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {EventTypes.RUN_REQUESTED, EventTypes.RUN_STATUS, EventTypes.RUN_CANCEL,
            EventTypes.REMOTE_TASK, EventTypes.WORKER_HEARTBEAT, EventTypes.EGRESS_ANOMALY,
            EventTypes.AUDIT_RECORD})
    void everyPropertyHasADescription(String type) {
        List<String> undocumented = new ArrayList<>();
        collectUndocumented(schemaJson(type), "", undocumented);

        assertThat(undocumented).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {EventTypes.RUN_REQUESTED, EventTypes.RUN_STATUS, EventTypes.RUN_CANCEL,
            EventTypes.REMOTE_TASK, EventTypes.WORKER_HEARTBEAT, EventTypes.EGRESS_ANOMALY,
            EventTypes.AUDIT_RECORD})
    void theSchemaNamesItsTypeAndDialect(String type) {
        JsonNode schema = schemaJson(type);

        assertThat(schema.get("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.get("$id").asText()).endsWith("/" + type + ".json");
        assertThat(schema.get("title").asText()).contains(type);
        assertThat(schema.get("description").asText()).isNotBlank();
        assertThat(schema.get("additionalProperties").asBoolean()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {EventTypes.RUN_REQUESTED, EventTypes.RUN_STATUS, EventTypes.RUN_CANCEL,
            EventTypes.REMOTE_TASK, EventTypes.WORKER_HEARTBEAT, EventTypes.EGRESS_ANOMALY,
            EventTypes.AUDIT_RECORD})
    void theSchemasOwnExamplesValidate(String type) {
        JsonNode examples = schemaJson(type).get("examples");

        assertThat(examples).isNotEmpty();
        examples.forEach(example -> assertThat(validate(type, example)).isEmpty());
    }

    @Test
    void everyEventTypeHasASchemaOnTheClasspath() throws IllegalAccessException {
        List<String> declared = new ArrayList<>();
        for (Field constant : EventTypes.class.getFields()) {
            if (Modifier.isStatic(constant.getModifiers()) && constant.getType() == String.class) {
                declared.add((String) constant.get(null));
            }
        }

        assertThat(EventSchemas.types()).containsExactlyInAnyOrderElementsOf(declared);
        assertThat(declared).allSatisfy(type ->
                assertThat(EventSchemaTest.class.getClassLoader().getResource(EventSchemas.resourcePath(type)))
                        .as(type).isNotNull());
    }

    @Test
    void aTypeWithoutSchemaIsNamedInTheError() {
        assertThatThrownBy(() -> EventSchemas.resourcePath("io.trimus.run.requested.v2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("io.trimus.run.requested.v2");
        assertThatThrownBy(() -> EventSchemas.resourcePath(null)).isInstanceOf(IllegalArgumentException.class);
    }

    static Set<ValidationMessage> validate(String type, JsonNode json) {
        JsonSchema schema = FACTORY.getSchema(SchemaLocation.of("classpath:" + EventSchemas.resourcePath(type)),
                ASSERT_FORMATS);
        return schema.validate(json);
    }

    static JsonNode schemaJson(String type) {
        try (InputStream in = EventSchemaTest.class.getClassLoader()
                .getResourceAsStream(EventSchemas.resourcePath(type))) {
            assertThat(in).as(type).isNotNull();
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> fieldNames(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static void collectUndocumented(JsonNode schema, String path, List<String> undocumented) {
        JsonNode properties = schema.get("properties");
        if (properties != null) {
            properties.fields().forEachRemaining(p -> {
                if (!p.getValue().hasNonNull("description") || p.getValue().get("description").asText().isBlank()) {
                    undocumented.add(path + p.getKey());
                }
                collectUndocumented(p.getValue(), path + p.getKey() + ".", undocumented);
            });
        }
        JsonNode defs = schema.get("$defs");
        if (defs != null) {
            defs.fields().forEachRemaining(d -> collectUndocumented(d.getValue(), "$defs." + d.getKey() + ".",
                    undocumented));
        }
    }
}
