package io.trimus.events;

/** Kafka topic names; the channel name of each producer and consumer equals its topic name. */
public final class Topics {
    /** Run requests from run-service's outbox to the adapter service; key = run id. */
    public static final String RUN_REQUESTED = "trimus.run.requested";
    /** Run status changes from the adapter service to run-service and the dashboard; key = run id. */
    public static final String RUN_STATUS = "trimus.run.status";
    /** Cancel requests from run-service's outbox to the adapter service; key = run id. */
    public static final String RUN_CANCEL = "trimus.run.cancel";

    /** Remote runs from the dispatching adapter service to the workers of a tag; key = run id. */
    public static final String REMOTE_TASKS = "trimus.remote.tasks";
    /** Heartbeats of workers to the dispatching adapter services and run-service; key = worker id. */
    public static final String WORKER_HEARTBEATS = "trimus.worker.heartbeats";

    /**
     * Leases of adapter-service processes on runs, and run-service's own marks: every process says which runs it holds
     * and which of them it started; key = instance. One partition, so a listener that reads its own latest mark has
     * read every beat published before it.
     */
    public static final String ADAPTER_LEASES = "trimus.adapter.leases";

    /** Denied DNS lookups of sandboxes, from egress-service to itself (persistence), dashboards and outside consumers; key = company id. */
    public static final String EGRESS_ANOMALIES = "trimus.egress.anomalies";

    /**
     * Canary requests from egress-service to the adapter services (one of them starts the probe sandbox); key =
     * company id.
     */
    public static final String EGRESS_CANARY_REQUESTS = "trimus.egress.canary.requests";
    /** Canary results from the adapter service back to egress-service; key = company id. */
    public static final String EGRESS_CANARY_RESULTS = "trimus.egress.canary.results";

    /**
     * Changes to what a company or the platform may do, with who, when and from where: from run-service's outbox and
     * from egress-service, to run-service (stores them for GET /api/audit) and outside SIEM consumers; key = company
     * id or {@code platform}.
     */
    public static final String AUDIT = "trimus.audit";

    private Topics() {
    }
}
