package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.UUID;

/**
 * {@code io.trimus.egress.anomaly.v1} on {@link Topics#EGRESS_ANOMALIES}: egress-service denied DNS lookups of
 * one sandbox for one name. Repeats within the rate-limit window are folded into one event: {@code count}
 * lookups between {@code first_seen} and {@code last_seen}. Sandbox fields are null for an unattributed source.
 *
 * @param reason {@code not_allowlisted}, {@code qtype_denied} or {@code unattributed_source}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EgressAnomaly(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                            String qname, String qtype, String reason, long count, Instant firstSeen,
                            Instant lastSeen) {
    public static final String NOT_ALLOWLISTED = "not_allowlisted";
    public static final String QTYPE_DENIED = "qtype_denied";
    public static final String UNATTRIBUTED_SOURCE = "unattributed_source";
}
