package io.trimus.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * {@code io.trimus.run.requested.v1} on {@link Topics#RUN_REQUESTED}: run-service asks the adapter
 * service to execute one run. {@code id} is the event id (also the CloudEvent id); consumers dedupe on it.
 * {@code secrets} maps variable names to values sealed with {@link io.trimus.events.secrets.DispatchSecrets}: never
 * plaintext on the wire.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
public record RunRequested(UUID id, UUID runId, UUID companyId, UUID agentId, String adapterType,
                           JsonNode adapterConfig, IssueRef issue, String input, Instant requestedAt,
                           Map<String, String> secrets) {

    public RunRequested {
        secrets = secrets == null ? Map.of() : Map.copyOf(secrets);
    }

    /** A request that carries no secrets. */
    public RunRequested(UUID id, UUID runId, UUID companyId, UUID agentId, String adapterType, JsonNode adapterConfig,
                        IssueRef issue, String input, Instant requestedAt) {
        this(id, runId, companyId, agentId, adapterType, adapterConfig, issue, input, requestedAt, Map.of());
    }
}
