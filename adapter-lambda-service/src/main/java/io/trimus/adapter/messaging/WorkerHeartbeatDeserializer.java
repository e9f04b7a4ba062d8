package io.trimus.adapter.messaging;

import io.quarkus.kafka.client.serialization.ObjectMapperDeserializer;
import io.trimus.events.WorkerHeartbeat;
import org.jboss.logging.Logger;

/** JSON → {@link WorkerHeartbeat}; a record that is not one becomes null and is skipped. */
public class WorkerHeartbeatDeserializer extends ObjectMapperDeserializer<WorkerHeartbeat> {

    private static final Logger LOG = Logger.getLogger(WorkerHeartbeatDeserializer.class);

    public WorkerHeartbeatDeserializer() {
        super(WorkerHeartbeat.class);
    }

    @Override
    public WorkerHeartbeat deserialize(String topic, byte[] data) {
        try {
            return super.deserialize(topic, data);
        } catch (RuntimeException e) {
            LOG.warnf("skipping a record on %s that is not a worker heartbeat: %s", topic, e.getMessage());
            return null;
        }
    }
}
