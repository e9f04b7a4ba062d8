package io.trimus.adapter.messaging;

import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.events.WorkerHeartbeat;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;

/** Publishes a worker's heartbeats on {@code trimus.worker.heartbeats}, keyed by worker id so they stay in order. */
@ApplicationScoped
public class WorkerHeartbeatPublisher {

    private static final Logger LOG = Logger.getLogger(WorkerHeartbeatPublisher.class);

    @Inject
    @Channel(Topics.WORKER_HEARTBEATS)
    @OnOverflow(value = OnOverflow.Strategy.DROP)   // a beat that cannot be sent is replaced by the next one
    Emitter<WorkerHeartbeat> emitter;

    public void publish(WorkerHeartbeat beat) {
        Message<WorkerHeartbeat> message = Message.of(beat)
                .addMetadata(OutgoingCloudEventMetadata.builder()
                        .withId(beat.id().toString())
                        .withType(EventTypes.WORKER_HEARTBEAT)
                        .withSource(RunStatusPublisher.SOURCE)
                        .withSubject(beat.workerId())
                        .withDataContentType("application/json")
                        .withTimestamp(beat.lastSeen().atZone(ZoneOffset.UTC))
                        .build())
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(beat.workerId()).build())
                .withNack(failure -> {
                    LOG.warnf("could not publish a heartbeat of worker %s: %s", beat.workerId(), failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
    }
}
