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
 * plaintext on the wire. {@code issuerMac} is set for a run of a remote agent only: run-service's MAC over what the
 * worker will run, for the company it was granted the worker tag to ({@link io.trimus.events.secrets.TaskMacs}).
 * {@code masked} names, by variable, the secrets among {@code secrets} that are masked and where they may be used
 * ({@link MaskScope}): the sandbox gets a surrogate for them, never the value.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
public record RunRequested(UUID id, UUID runId, UUID companyId, UUID agentId, String adapterType,
                           JsonNode adapterConfig, IssueRef issue, String input, Instant requestedAt,
                           Map<String, String> secrets, String issuerMac, Map<String, MaskScope> masked) {

    public RunRequested {
        secrets = secrets == null ? Map.of() : Map.copyOf(secrets);
        masked = masked == null ? Map.of() : Map.copyOf(masked);
    }

    /** A request whose secrets are all plain. */
    public RunRequested(UUID id, UUID runId, UUID companyId, UUID agentId, String adapterType, JsonNode adapterConfig,
                        IssueRef issue, String input, Instant requestedAt, Map<String, String> secrets,
                        String issuerMac) {
        this(id, runId, companyId, agentId, adapterType, adapterConfig, issue, input, requestedAt, secrets, issuerMac,
                Map.of());
    }

    /** The same request with its issuer MAC. */
    public RunRequested withIssuerMac(String mac) {
        return new RunRequested(id, runId, companyId, agentId, adapterType, adapterConfig, issue, input, requestedAt,
                secrets, mac, masked);
    }
}
