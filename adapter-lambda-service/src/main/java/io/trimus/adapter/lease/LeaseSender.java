package io.trimus.adapter.lease;

import io.trimus.events.AdapterLease;

import java.util.concurrent.CompletionStage;

/** Where this process's lease beats go; implemented by the Kafka publisher. */
@FunctionalInterface
public interface LeaseSender {

    /** Publishes one beat; the stage completes when the broker acknowledged it, exceptionally when it refused it. */
    CompletionStage<Void> publish(AdapterLease beat);
}
