package io.trimus.events;

/** Kafka topic names; the channel name of each producer and consumer equals its topic name. */
public final class Topics {
    /** Run requests from run-service's outbox to the adapter service; key = run id. */
    public static final String RUN_REQUESTED = "trimus.run.requested";
    /** Run status changes from the adapter service to run-service and the dashboard; key = run id. */
    public static final String RUN_STATUS = "trimus.run.status";
    /** Cancel requests from run-service's outbox to the adapter service; key = run id. */
    public static final String RUN_CANCEL = "trimus.run.cancel";

    /** Denied DNS lookups of sandboxes, from egress-service to itself (persistence), dashboards and outside consumers; key = company id. */
    public static final String EGRESS_ANOMALIES = "trimus.egress.anomalies";

    private Topics() {
    }
}
