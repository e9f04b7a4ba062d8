package io.trimus.adapter.remote;

import io.trimus.events.WorkerHeartbeat;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * {@code trimus.worker.heartbeats} → {@link RemoteRuns#onHeartbeat}. The channel is named {@value #CHANNEL}, not after
 * its topic (set in application.properties), because this service also publishes that topic (in worker mode) under the topic's name.
 */
@ApplicationScoped
public class WorkerHeartbeatConsumer {

    static final String CHANNEL = "worker-heartbeats-in";

    @Inject
    RemoteRuns runs;

    @Incoming(CHANNEL)
    public void onHeartbeat(WorkerHeartbeat beat) {
        if (beat != null) {
            runs.onHeartbeat(beat);
        }
    }
}
