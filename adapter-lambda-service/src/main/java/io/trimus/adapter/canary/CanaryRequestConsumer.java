package io.trimus.adapter.canary;

import io.trimus.events.CanaryRequested;
import io.trimus.events.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * {@code trimus.egress.canary.requests} (consumer group {@code trimus-adapter-canary}: one instance takes each
 * request) → {@link CanaryProbes#accept}, which queues the probe and returns at once. Off in worker mode, like the
 * run intake ({@code worker.WorkerModeConfigSourceFactory}).
 */
@ApplicationScoped
public class CanaryRequestConsumer {

    private static final Logger LOG = Logger.getLogger(CanaryRequestConsumer.class);

    @Inject
    CanaryProbes probes;

    @Incoming(Topics.EGRESS_CANARY_REQUESTS)
    public void onCanaryRequested(CanaryRequested request) {
        if (request == null) {
            LOG.debug("skipped an unreadable record on " + Topics.EGRESS_CANARY_REQUESTS);
            return;
        }
        probes.accept(request);
    }
}
