package io.trimus.egress.anomaly;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes anomaly events on {@code trimus.egress.anomalies} as binary-mode CloudEvents (id = event id, type
 * {@link EventTypes#EGRESS_ANOMALY}), keyed by company id ({@value #UNATTRIBUTED_KEY} for an unknown source) so one
 * company's denials stay in order. Never waits for the broker, and sends off the caller's thread: {@link #publish}
 * queues the event ({@link AnomalyHandOff}, {@value #QUEUE} events; when full, it is sent on the caller's thread and
 * counted in {@code trimus_egress_anomalies_inline_total}) and one thread, {@value #THREAD}, hands it to the emitter,
 * so the resolver's event loops do not serialise events nor wait for the producer. A failed send is counted and
 * logged, at most once per {@link #LOG_INTERVAL}, so a broker outage cannot flood the log. At shutdown, after the
 * recorder has published what it folded, the queue is sent before the emitter closes.
 */
@ApplicationScoped
public class KafkaAnomalyPublisher implements AnomalyPublisher {
    static final URI SOURCE = CloudEventRecords.source("egress-service");
    /** Kafka key of anomalies from a source no sandbox is registered at. */
    public static final String UNATTRIBUTED_KEY = "unattributed";
    static final Duration LOG_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = Logger.getLogger(KafkaAnomalyPublisher.class);
    /** Events queued for the sending thread at most. */
    static final int QUEUE = 16384;
    /** The sending thread's name. */
    static final String THREAD = "trimus-anomaly-publisher";

    @Inject
    @Channel(Topics.EGRESS_ANOMALIES)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 16384)
    MutinyEmitter<EgressAnomaly> emitter;

    @Inject
    MeterRegistry registry;

    private Counter emitted;
    private Counter failed;
    private final AtomicLong lastFailureLog = new AtomicLong();
    private AnomalyHandOff handOff;

    @PostConstruct
    void meters() {
        emitted = Counter.builder("trimus.egress.anomalies.emitted")
                .description("Anomaly events the broker acknowledged")
                .register(registry);
        failed = Counter.builder("trimus.egress.anomalies.publish.failures")
                .description("Anomaly events that could not be published")
                .register(registry);
        handOff = new AnomalyHandOff(THREAD, QUEUE, this::send);
        FunctionCounter.builder("trimus.egress.anomalies.inline", handOff, AnomalyHandOff::inline)
                .description("Anomaly events sent on the recording thread because the publisher's queue was full")
                .register(registry);
        Gauge.builder("trimus.egress.anomalies.queued", handOff, AnomalyHandOff::queued)
                .description("Anomaly events waiting for the publisher's thread")
                .register(registry);
    }

    /** Queues the event for the sending thread (or sends it here when the queue is full); never waits. */
    @Override
    public void publish(EgressAnomaly anomaly) {
        handOff.offer(anomaly);
    }

    /** After the recorder's own shutdown observer (which publishes what its windows folded): sends what is queued. */
    void onStop(@Observes @Priority(Interceptor.Priority.APPLICATION + 1000) ShutdownEvent event) {
        if (!handOff.close(Duration.ofSeconds(10))) {
            LOG.warnf("anomaly events still queued at shutdown after 10 s: %d", handOff.queued());
        }
    }

    private void send(EgressAnomaly anomaly) {
        try {
            emitter.sendMessage(message(anomaly)).subscribe().with(
                    acked -> emitted.increment(),
                    failure -> failed(anomaly, failure));
        } catch (RuntimeException e) {
            failed(anomaly, e);
        }
    }

    /** The Kafka message of one event: CloudEvent attributes and the record key. */
    static Message<EgressAnomaly> message(EgressAnomaly anomaly) {
        return CloudEventRecords.message(anomaly,
                Envelope.of(anomaly.id(), EventTypes.EGRESS_ANOMALY, SOURCE, key(anomaly), anomaly.lastSeen()));
    }

    /** The record key: the company id, or {@value #UNATTRIBUTED_KEY}. */
    static String key(EgressAnomaly anomaly) {
        return anomaly.companyId() == null ? UNATTRIBUTED_KEY : anomaly.companyId().toString();
    }

    private void failed(EgressAnomaly anomaly, Throwable failure) {
        failed.increment();
        long now = System.nanoTime();
        long last = lastFailureLog.get();
        if ((last == 0 || now - last >= LOG_INTERVAL.toNanos()) && lastFailureLog.compareAndSet(last, now)) {
            LOG.errorf("could not publish anomaly %s (%s %s %s, count %d): %s; %d failures so far",
                    anomaly.id(), anomaly.reason(), anomaly.qname(), anomaly.qtype(), anomaly.count(),
                    failure.getMessage(), (long) failed.count());
        }
    }
}
