package io.trimus.admin.messaging;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import io.trimus.events.EgressAnomaly;
import io.trimus.events.RunStatusChanged;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The in-memory broadcast between the Kafka consumers and the browsers' SSE streams: every open page subscribes
 * and sees what arrives from now on. Never blocks a consumer on a slow browser (each stream buffers on its own).
 */
@ApplicationScoped
public class LiveFeed {
    private final BroadcastProcessor<EgressAnomaly> anomalies = BroadcastProcessor.create();
    private final BroadcastProcessor<RunStatusChanged> runStatuses = BroadcastProcessor.create();

    /** Publishes a denied lookup to every open page. */
    public void publish(EgressAnomaly anomaly) {
        synchronized (anomalies) { // Reactive Streams wants onNext calls one at a time
            anomalies.onNext(anomaly);
        }
    }

    /** Publishes a run's status change to every open page. */
    public void publish(RunStatusChanged status) {
        synchronized (runStatuses) {
            runStatuses.onNext(status);
        }
    }

    /** Anomalies from now on. */
    public Multi<EgressAnomaly> anomalies() {
        return anomalies;
    }

    /** Run status changes from now on. */
    public Multi<RunStatusChanged> runStatuses() {
        return runStatuses;
    }
}
