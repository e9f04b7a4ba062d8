package io.trimus.egress.anomaly.store;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * The in-process feed of anomalies as they are persisted: the live stream of the REST API subscribes here. Only
 * committed rows are published, each once; a subscriber sees what is persisted after it subscribed. The feed is
 * per instance: with several egress-service instances in one consumer group, each streams what it persisted.
 */
@ApplicationScoped
public class AnomalyBroadcast {
    private final BroadcastProcessor<AnomalyEvent> processor = BroadcastProcessor.create();

    /** Publishes a committed row to current subscribers; never blocks on a slow one. */
    public void publish(AnomalyEvent row) {
        synchronized (processor) { // Reactive Streams wants onNext calls one at a time
            processor.onNext(row);
        }
    }

    /** The company's anomalies persisted from now on. */
    public Multi<AnomalyEvent> of(UUID companyId) {
        return processor.filter(row -> companyId.equals(row.companyId));
    }
}
