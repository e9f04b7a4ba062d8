package io.trimus.adapter.worker;

import io.trimus.events.WorkerHeartbeat;

/** Where a worker's heartbeats go; implemented by the Kafka publisher. */
@FunctionalInterface
public interface HeartbeatSender {

    /** Publishes one beat; never blocks on the broker. */
    void publish(WorkerHeartbeat beat);
}
