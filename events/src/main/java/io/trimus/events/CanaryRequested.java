package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.UUID;

/**
 * {@code io.trimus.egress.canary.requested.v1} on {@link Topics#EGRESS_CANARY_REQUESTS}: egress-service asks one
 * adapter service to start a canary for a company, a minimal probe sandbox on the egress network that tries what the
 * company's policy must refuse and one thing it must let through, and to answer with a {@link CanaryResult}. A canary
 * is not a run: it never enters the company's queue and never counts against its fair share.
 * <p>
 * The sandbox is registered with egress-service as the company's, under agent {@link #PROBE_AGENT_ID} and run
 * {@code canary_id}: the company's own allowlist decides for it (no agent has a list of its own under that id), and
 * egress-service records its denials as no anomaly, since they are the point of the probe.
 *
 * @param id           the event id
 * @param canaryId     the canary, as egress-service stores it; the probe sandbox's run id
 * @param companyId    whose policy is probed
 * @param unlistedName a name the company's policy does not allow: the resolver must answer NXDOMAIN and the proxy
 *                     refuse it
 * @param ipLiteral    {@code address:port} of a public address literal the sandbox must reach neither directly nor
 *                     through the proxy
 * @param allowedHost  {@code host:port} the company allow-lists (the proxy must admit it), or null when its
 *                     allowlist names no host a probe can use
 * @param unlistedPort a port the proxy must refuse for {@code allowedHost} (or for the unlisted name, when there
 *                     is no allowed host)
 * @param requestedAt  when egress-service asked
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CanaryRequested(UUID id, UUID canaryId, UUID companyId, String unlistedName, String ipLiteral,
                              String allowedHost, int unlistedPort, Instant requestedAt) {

    /** The agent id every canary sandbox registers under; run-service never gives an agent this id. */
    public static final UUID PROBE_AGENT_ID = UUID.fromString("00000000-0000-0000-0000-00000000ca7a");

    /** The cloud metadata address every canary tries, directly and through the proxy. */
    public static final String METADATA_ADDRESS = "169.254.169.254";

    /** True for the agent id of a canary sandbox ({@link #PROBE_AGENT_ID}). */
    public static boolean isProbe(UUID agentId) {
        return PROBE_AGENT_ID.equals(agentId);
    }
}
