package io.trimus.egress.canary;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * One canary of a company as stored: {@code running} until an adapter service reports its checks, then
 * {@code passed}, {@code breached} or {@code failed}; {@code checks} is the JSON array of
 * {@link io.trimus.events.CanaryCheck} the adapter reported.
 */
@Entity
@Table(name = "egress_canary")
public class Canary {
    public static final String RUNNING = "running";
    public static final String PASSED = "passed";
    public static final String BREACHED = "breached";
    public static final String FAILED = "failed";
    public static final String SCHEDULED = "scheduled";
    public static final String MANUAL = "manual";

    @Id
    public UUID id;
    public UUID companyId;
    public String trigger;
    public String status;
    public Instant requestedAt;
    public Instant finishedAt;
    public String checks;
    public String error;
    public String instance;
}
