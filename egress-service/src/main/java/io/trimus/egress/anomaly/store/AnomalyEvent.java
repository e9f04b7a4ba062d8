package io.trimus.egress.anomaly.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * A persisted {@code io.trimus.egress.anomaly.v1} event: denied lookups of one sandbox for one name, counted over
 * a window. Written once per event id by {@link AnomalyConsumer}; never changed afterwards.
 */
@Entity
@Table(name = "egress_anomaly_events")
public class AnomalyEvent {
    @Id
    public UUID id;
    public UUID companyId;
    public UUID agentId;
    public UUID runId;
    public String containerId;
    public String sourceIp;
    public String qname;
    public String qtype;
    public String reason;
    @Column(name = "count")
    public long count;
    public Instant firstSeen;
    public Instant lastSeen;
    public Instant receivedAt;
    /** False for what report mode let through, which enforce mode would have denied. */
    public boolean enforced = true;
    /** For {@code proxy_request_denied}: the refused request's method; else null. */
    public String method;
    /** For {@code proxy_request_denied}: the refused request's normalised path; else null. */
    public String path;
}
