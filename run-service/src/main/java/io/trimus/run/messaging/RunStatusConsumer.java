package io.trimus.run.messaging;

import io.smallrye.mutiny.Uni;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import io.trimus.run.service.run.RunLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/** Feeds {@code trimus.run.status} events into the run state machine. */
@ApplicationScoped
public class RunStatusConsumer {
    private static final Logger LOG = Logger.getLogger(RunStatusConsumer.class);
    private final RunLifecycle runs;

    RunStatusConsumer(RunLifecycle runs) {
        this.runs = runs;
    }

    @Incoming(Topics.RUN_STATUS)
    public Uni<Void> consume(RunStatusChanged event) {
        if (event == null || event.id() == null || event.runId() == null || event.status() == null) {
            LOG.warn("Skipping a run.status record that is not a valid io.trimus.run.status.v1 event");
            return Uni.createFrom().voidItem();
        }
        return runs.applyStatus(event);
    }
}
