package io.trimus.adapter.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.events.EventTypes;
import io.trimus.events.RunCancelRequested;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.config.ConfigProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.awaitility.Awaitility;

/**
 * The test's side of the Kafka topics, on the real broker: produces run and cancel requests as binary-mode
 * CloudEvents (as run-service's outbox does) and reads every status event the service publishes. One per
 * test JVM, shared by all test classes (they share one app boot).
 */
public final class RunBus {

    /** The first event through a new consumer group can take ~10 s here; later ones are fast. */
    public static final Duration FIRST_EVENT = Duration.ofSeconds(60);

    private static RunBus shared;

    private final KafkaCompanion companion;
    private final ConsumerTask<String, String> statuses;
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private RunBus(String bootstrapServers) {
        companion = new KafkaCompanion(bootstrapServers);
        statuses = companion.consumeStrings()
                .withGroupId("adapter-tests-" + UUID.randomUUID())
                .withProp("auto.offset.reset", "earliest")
                .fromTopics(Topics.RUN_STATUS);
    }

    /** The bus of this test JVM, on the broker the app under test uses. */
    public static synchronized RunBus get() {
        if (shared == null) {
            shared = new RunBus(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close));
        }
        return shared;
    }

    /** Produces the run request keyed by run id with ce_* headers, as run-service's outbox relay does. */
    public void request(RunRequested request) {
        produce(Topics.RUN_REQUESTED, request.runId(), request.id(), EventTypes.RUN_REQUESTED, write(request));
    }

    /** Produces the run request as {@link #request} does, on another topic (a dispatcher of a test's own reads it). */
    public void requestOn(String topic, RunRequested request) {
        produce(topic, request.runId(), request.id(), EventTypes.RUN_REQUESTED, write(request));
    }

    /** Produces a cancel request for the run. */
    public void cancel(RunRequested run) {
        RunCancelRequested cancel = new RunCancelRequested(UUID.randomUUID(), run.runId(), run.companyId(),
                Instant.now());
        produce(Topics.RUN_CANCEL, run.runId(), cancel.id(), EventTypes.RUN_CANCEL, write(cancel));
    }

    /** Produces a canary request keyed by company id with ce_* headers, as egress-service does. */
    public void canary(io.trimus.events.CanaryRequested request) {
        produce(Topics.EGRESS_CANARY_REQUESTS, request.companyId(), request.id(), EventTypes.EGRESS_CANARY_REQUESTED,
                write(request));
    }

    /** A consumer of {@code topic} from its start, in a group of its own; the caller stops it. */
    public ConsumerTask<String, String> consume(String topic) {
        return companion.consumeStrings().withGroupId("adapter-tests-" + UUID.randomUUID())
                .withProp("auto.offset.reset", "earliest").fromTopics(topic);
    }

    /** Produces an arbitrary value on a topic, e.g. a record that is not JSON. */
    public void produceRaw(String topic, String key, String value) {
        companion.produceStrings().fromRecords(new ProducerRecord<>(topic, key, value)).awaitCompletion();
    }

    /** The status events of one run so far, in order. */
    public List<RunStatusChanged> events(UUID runId) {
        return records(runId).stream().map(r -> read(r.value())).toList();
    }

    /** The raw status records of one run so far (headers included). */
    public List<ConsumerRecord<String, String>> records(UUID runId) {
        String key = runId.toString();
        return statuses.getRecords().stream().filter(r -> key.equals(r.key())).toList();
    }

    /** The states the run went through so far. */
    public List<RunState> states(UUID runId) {
        return events(runId).stream().map(RunStatusChanged::status).toList();
    }

    /** Waits for the run's first event in {@code state}. */
    public RunStatusChanged await(UUID runId, RunState state) {
        return await(runId, state, FIRST_EVENT);
    }

    /** Waits at most {@code atMost} for the run's first event in {@code state}. */
    public RunStatusChanged await(UUID runId, RunState state, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(100))
                .until(() -> states(runId).contains(state));
        return events(runId).stream().filter(e -> e.status() == state).findFirst().orElseThrow();
    }

    /** Waits for the run's terminal event. */
    public RunStatusChanged awaitEnd(UUID runId) {
        return awaitEnd(runId, FIRST_EVENT);
    }

    /** Waits at most {@code atMost} for the run's terminal event. */
    public RunStatusChanged awaitEnd(UUID runId, Duration atMost) {
        Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(100))
                .until(() -> states(runId).stream().anyMatch(RunState::isTerminal));
        return events(runId).stream().filter(e -> e.status().isTerminal()).findFirst().orElseThrow();
    }

    private void produce(String topic, UUID key, UUID eventId, String type, String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("ce_specversion", bytes("1.0"));
        headers.add("ce_id", bytes(eventId.toString()));
        headers.add("ce_type", bytes(type));
        headers.add("ce_source", bytes("trimus/run-service"));
        headers.add("content-type", bytes("application/json"));
        companion.produceStrings()
                .fromRecords(new ProducerRecord<>(topic, null, key.toString(), value, headers))
                .awaitCompletion();
    }

    private String write(Object event) {
        try {
            return json.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private RunStatusChanged read(String value) {
        try {
            return json.readValue(value, RunStatusChanged.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not a RunStatusChanged: " + value, e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void close() {
        statuses.stop();
        companion.close();
    }
}
