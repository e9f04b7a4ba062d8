package io.trimus.adapter.messaging;

import io.quarkus.kafka.client.serialization.ObjectMapperDeserializer;
import io.trimus.events.RunCancelRequested;
import org.jboss.logging.Logger;

/** JSON → {@link RunCancelRequested}; a record that is not one becomes null and is skipped. */
public class RunCancelRequestedDeserializer extends ObjectMapperDeserializer<RunCancelRequested> {

    private static final Logger LOG = Logger.getLogger(RunCancelRequestedDeserializer.class);

    public RunCancelRequestedDeserializer() {
        super(RunCancelRequested.class);
    }

    @Override
    public RunCancelRequested deserialize(String topic, byte[] data) {
        try {
            return super.deserialize(topic, data);
        } catch (RuntimeException e) {
            LOG.warnf("skipping a record on %s that is not a cancel request: %s", topic, e.getMessage());
            return null;
        }
    }
}
