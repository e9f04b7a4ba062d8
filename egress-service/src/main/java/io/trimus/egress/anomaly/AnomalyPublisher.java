package io.trimus.egress.anomaly;

import io.trimus.events.EgressAnomaly;

/** Where folded anomaly events go: {@code trimus.egress.anomalies} in the service, a list in tests. */
public interface AnomalyPublisher {

    /** Hands the event over without waiting for the broker; failures are the publisher's to log, never thrown. */
    void publish(EgressAnomaly anomaly);
}
