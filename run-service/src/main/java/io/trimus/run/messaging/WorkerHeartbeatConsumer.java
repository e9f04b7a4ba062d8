package io.trimus.run.messaging;

import io.trimus.events.Topics;
import io.trimus.events.WorkerHeartbeat;
import io.trimus.run.service.worker.WorkerDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/** Feeds {@code trimus.worker.heartbeats} into the {@link WorkerDirectory} behind GET /api/workers. */
@ApplicationScoped
public class WorkerHeartbeatConsumer {
    private static final Logger LOG = Logger.getLogger(WorkerHeartbeatConsumer.class);
    private final WorkerDirectory workers;

    WorkerHeartbeatConsumer(WorkerDirectory workers) {
        this.workers = workers;
    }

    @Incoming(Topics.WORKER_HEARTBEATS)
    public void consume(WorkerHeartbeat beat) {
        if (beat == null || beat.workerId() == null || beat.workerId().isBlank()) {
            LOG.warn("Skipping a worker heartbeat record that is not a valid io.trimus.worker.heartbeat.v1 event");
            return;
        }
        workers.heard(beat);
    }
}
