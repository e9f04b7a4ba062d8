package io.trimus.run.messaging;

import io.smallrye.mutiny.Uni;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import io.trimus.run.service.run.RunChanges;
import io.trimus.run.service.run.RunLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Feeds {@code trimus.run.status} events into the run state machine, then tells {@link RunChanges} that the run may
 * have changed, once the change is stored: the push that wakes this instance's A2A streams and waits on that run.
 */
@ApplicationScoped
public class RunStatusConsumer {
    private static final Logger LOG = Logger.getLogger(RunStatusConsumer.class);
    private final RunLifecycle runs;
    private final RunChanges changes;

    RunStatusConsumer(RunLifecycle runs, RunChanges changes) {
        this.runs = runs;
        this.changes = changes;
    }

    @Incoming(Topics.RUN_STATUS)
    public Uni<Void> consume(RunStatusChanged event) {
        if (event == null || event.id() == null || event.runId() == null || event.status() == null) {
            LOG.warn("Skipping a run.status record that is not a valid io.trimus.run.status.v1 event");
            return Uni.createFrom().voidItem();
        }
        return runs.applyStatus(event).invoke(() -> changes.changed(event.runId()));
    }
}
