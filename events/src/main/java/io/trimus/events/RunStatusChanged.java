package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.UUID;

/**
 * {@code io.trimus.run.status.v1} on {@link Topics#RUN_STATUS}: the adapter service reports that a run
 * reached {@code status}. Terminal events carry the exit code, the capped output tail and the reason.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunStatusChanged(UUID id, UUID runId, UUID companyId, UUID agentId, RunState status,
                               Integer exitCode, String output, String error, Instant occurredAt) {

    /** A new event with a fresh id and the current time. */
    public static RunStatusChanged of(UUID runId, UUID companyId, UUID agentId, RunState status,
                                      Integer exitCode, String output, String error) {
        return new RunStatusChanged(UUID.randomUUID(), runId, companyId, agentId, status, exitCode, output, error,
                Instant.now());
    }

    /** A progress event (DISPATCHED, RUNNING) without outcome fields. */
    public static RunStatusChanged progress(UUID runId, UUID companyId, UUID agentId, RunState status) {
        return of(runId, companyId, agentId, status, null, null, null);
    }
}
