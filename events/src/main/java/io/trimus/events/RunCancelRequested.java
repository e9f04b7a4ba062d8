package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.UUID;

/**
 * {@code io.trimus.run.cancel.v1} on {@link Topics#RUN_CANCEL}: run-service asks the adapter service to
 * stop a run; the adapter answers with a CANCELLED status once the run's process is gone.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
public record RunCancelRequested(UUID id, UUID runId, UUID companyId, Instant requestedAt) {
}
