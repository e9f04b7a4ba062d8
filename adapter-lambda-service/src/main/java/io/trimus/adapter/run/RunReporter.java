package io.trimus.adapter.run;

import io.trimus.events.RunStatusChanged;

/** Where adapters and the dispatcher report a run's progress; implemented by the Kafka publisher. */
@FunctionalInterface
public interface RunReporter {

    /** Publishes one status change; never blocks on the broker. */
    void report(RunStatusChanged event);
}
