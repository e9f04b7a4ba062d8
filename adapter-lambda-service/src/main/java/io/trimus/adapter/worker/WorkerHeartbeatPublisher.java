package io.trimus.adapter.worker;

import io.trimus.adapter.run.ServiceEvents;
import io.trimus.commons.messaging.CloudEventRecords.Envelope;
import io.trimus.commons.messaging.CloudEventRecords;
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

import java.util.concurrent.CompletableFuture;

/** Publishes a worker's heartbeats on {@code trimus.worker.heartbeats}, keyed by worker id so they stay in order. */
@ApplicationScoped
public class WorkerHeartbeatPublisher implements HeartbeatSender {

    private static final Logger LOG = Logger.getLogger(WorkerHeartbeatPublisher.class);

    @Inject
    @Channel(Topics.WORKER_HEARTBEATS)
    @OnOverflow(value = OnOverflow.Strategy.DROP)   // a beat that cannot be sent is replaced by the next one
    Emitter<WorkerHeartbeat> emitter;

    @Override
    public void publish(WorkerHeartbeat beat) {
        Message<WorkerHeartbeat> message = CloudEventRecords.message(beat, Envelope.of(beat.id(),
                        EventTypes.WORKER_HEARTBEAT, ServiceEvents.SOURCE, beat.workerId(), beat.lastSeen()))
                .withNack(failure -> {
                    LOG.warnf("could not publish a heartbeat of worker %s: %s", beat.workerId(), failure.getMessage());
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
    }
}
