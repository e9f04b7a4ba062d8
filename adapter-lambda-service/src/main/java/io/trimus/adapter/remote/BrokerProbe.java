package io.trimus.adapter.remote;

/** Whether this dispatcher reaches the Kafka broker now: while it does not, a worker's silence proves nothing. */
@FunctionalInterface
public interface BrokerProbe {

    /** True when the broker answered just now; never throws, returns within a second or two. */
    boolean reachable();
}
