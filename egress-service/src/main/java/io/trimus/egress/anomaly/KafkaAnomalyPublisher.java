package io.trimus.egress.anomaly;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.trimus.commons.messaging.CloudEventRecords;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
 * company's denials stay in order. Never waits for the broker: a failed send is counted and logged, at most once
 * per {@link #LOG_INTERVAL}, so a broker outage cannot flood the log.
 */
@ApplicationScoped
public class KafkaAnomalyPublisher implements AnomalyPublisher {
    static final URI SOURCE = CloudEventRecords.source("egress-service");
    /** Kafka key of anomalies from a source no sandbox is registered at. */
    public static final String UNATTRIBUTED_KEY = "unattributed";
    static final Duration LOG_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = Logger.getLogger(KafkaAnomalyPublisher.class);

    @Inject
    @Channel(Topics.EGRESS_ANOMALIES)
    @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 16384)
    MutinyEmitter<EgressAnomaly> emitter;

    @Inject
    MeterRegistry registry;

    private Counter emitted;
    private Counter failed;
    private final AtomicLong lastFailureLog = new AtomicLong();

    @PostConstruct
    void meters() {
        emitted = Counter.builder("trimus.egress.anomalies.emitted")
                .description("Anomaly events the broker acknowledged")
                .register(registry);
        failed = Counter.builder("trimus.egress.anomalies.publish.failures")
                .description("Anomaly events that could not be published")
                .register(registry);
    }

    @Override
    public void publish(EgressAnomaly anomaly) {
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
