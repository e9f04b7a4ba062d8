package io.trimus.adapter.remote;

import io.trimus.events.RemoteTask;

/** Where the remote adapter hands tasks to workers; implemented by the Kafka publisher. */
@FunctionalInterface
public interface RemoteTasks {

    /** Publishes the task keyed by its run id; never blocks on the broker. */
    void publish(RemoteTask task);
}
