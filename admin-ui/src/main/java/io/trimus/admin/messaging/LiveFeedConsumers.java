package io.trimus.admin.messaging;

import io.trimus.events.EgressAnomaly;
import io.trimus.events.RunStatusChanged;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Reads {@code trimus.egress.anomalies} and {@code trimus.run.status} with consumer groups of this process alone
 * (named after {@code quarkus.uuid}), from the latest offset, and hands each event to {@link LiveFeed}: every replica
 * sees every event, as each of its browsers must. Nothing is stored or committed: history is the backends'.
 */
@ApplicationScoped
public class LiveFeedConsumers {
    private static final Logger LOG = Logger.getLogger(LiveFeedConsumers.class);

    private final LiveFeed feed;

    LiveFeedConsumers(LiveFeed feed) {
        this.feed = feed;
    }

    @Incoming("anomalies-live")
    public void anomaly(EgressAnomaly anomaly) {
        if (anomaly == null || anomaly.id() == null || anomaly.qname() == null || anomaly.reason() == null) {
            LOG.debug("Skipping a record that is no io.trimus.egress.anomaly.v1 event");
            return;
        }
        feed.publish(anomaly);
    }

    @Incoming("run-status-live")
    public void runStatus(RunStatusChanged status) {
        if (status == null || status.runId() == null || status.status() == null) {
            LOG.debug("Skipping a record that is no io.trimus.run.status.v1 event");
            return;
        }
        feed.publish(status);
    }
}
