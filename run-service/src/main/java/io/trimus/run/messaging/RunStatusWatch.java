package io.trimus.run.messaging;

import io.trimus.events.RunStatusChanged;
import io.trimus.run.service.run.RunChanges;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Hears every {@code trimus.run.status} event on every run-service instance (a consumer group of its own per process,
 * from now on) and tells {@link RunChanges}, so a stream on this instance learns of a run whose status another
 * replica stored. {@link RunStatusConsumer}, which stores the status, tells it again once the status is stored.
 */
@ApplicationScoped
public class RunStatusWatch {
    /** The channel: trimus.run.status under a per-process group (application.properties). */
    static final String CHANNEL = "run-status-watch";
    private final RunChanges changes;

    RunStatusWatch(RunChanges changes) {
        this.changes = changes;
    }

    @Incoming(CHANNEL)
    public void heard(RunStatusChanged event) {
        if (event != null && event.runId() != null) {
            changes.changed(event.runId());
        }
    }
}
