package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code io.trimus.egress.canary.result.v1} on {@link Topics#EGRESS_CANARY_RESULTS}: the adapter service's answer to
 * a {@link CanaryRequested}, once its probe sandbox is gone.
 *
 * @param id        the event id
 * @param canaryId  the canary answered
 * @param companyId whose policy was probed
 * @param checks    what the probe tried and got, in {@link CanaryCheck#NAMES} order; empty when it could not run
 * @param error     why the probe could not run or report (no image, engine down, unreadable output); else null
 * @param instance  the adapter instance that ran it
 * @param finishedAt when the probe sandbox ended
 * @param sandboxIp the probe sandbox's address on the egress network; null when it never got one
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CanaryResult(UUID id, UUID canaryId, UUID companyId, List<CanaryCheck> checks, String error,
                           String instance, Instant finishedAt, String sandboxIp) {
    public CanaryResult {
        checks = checks == null ? List.of() : List.copyOf(checks);
    }

    /** A result without the sandbox's address. */
    public CanaryResult(UUID id, UUID canaryId, UUID companyId, List<CanaryCheck> checks, String error,
                        String instance, Instant finishedAt) {
        this(id, canaryId, companyId, checks, error, instance, finishedAt, null);
    }

    /** True when a check of something that must fail got through. */
    public boolean breached() {
        return checks.stream().anyMatch(CanaryCheck::breached);
    }
}
