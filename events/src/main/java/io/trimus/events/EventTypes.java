package io.trimus.events;

/** CloudEvent {@code type} values; a breaking change to a payload gets a new {@code .vN} type. */
public final class EventTypes {
    public static final String RUN_REQUESTED = "io.trimus.run.requested.v1";
    public static final String RUN_STATUS = "io.trimus.run.status.v1";
    public static final String RUN_CANCEL = "io.trimus.run.cancel.v1";
    public static final String REMOTE_TASK = "io.trimus.remote.task.v1";
    public static final String WORKER_HEARTBEAT = "io.trimus.worker.heartbeat.v1";
    public static final String ADAPTER_LEASE = "io.trimus.adapter.lease.v1";

    public static final String EGRESS_ANOMALY = "io.trimus.egress.anomaly.v1";
    public static final String EGRESS_CANARY_REQUESTED = "io.trimus.egress.canary.requested.v1";
    public static final String EGRESS_CANARY_RESULT = "io.trimus.egress.canary.result.v1";

    public static final String AUDIT_RECORD = "io.trimus.audit.record.v1";

    private EventTypes() {
    }
}
