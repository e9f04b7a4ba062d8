package io.trimus.adapter.messaging;

import io.quarkus.kafka.client.serialization.ObjectMapperDeserializer;
import io.trimus.events.RunRequested;
import org.jboss.logging.Logger;

/**
 * JSON → {@link RunRequested}. A record that is not a run request becomes null (logged and skipped by the
 * consumer) instead of an error that would stop the channel.
 */
public class RunRequestedDeserializer extends ObjectMapperDeserializer<RunRequested> {

    private static final Logger LOG = Logger.getLogger(RunRequestedDeserializer.class);

    public RunRequestedDeserializer() {
        super(RunRequested.class);
    }

    @Override
    public RunRequested deserialize(String topic, byte[] data) {
        try {
            return super.deserialize(topic, data);
        } catch (RuntimeException e) {
            LOG.warnf("skipping a record on %s that is not a run request: %s", topic, e.getMessage());
            return null;
        }
    }
}
