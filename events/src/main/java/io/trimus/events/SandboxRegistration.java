package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.UUID;

/**
 * Body of egress-service's {@code PUT /internal/sandboxes/{ip}}: the adapter service tells the resolver which
 * company, agent and run a sandbox address belongs to, before the sandbox's process can send a packet. The first PUT
 * of a run claims the address (409 when another run holds it) before the container exists, without
 * {@code container_id}; the second, once the container is created and before it starts, confirms the container id.
 * {@code DELETE /internal/sandboxes/{ip}?run_id=…} gives the address up; only the run that holds it can.
 * <p>
 * A sandbox holding masked secrets carries them in {@code masks} ({@link io.trimus.events.secrets.SandboxMasks},
 * sealed) on its confirming PUT and on every refresh, and names in {@code ca} the SHA-256 fingerprint (hex, lower
 * case) of the egress CA certificate placed in it, so the proxy signs its leaf certificates with that CA.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SandboxRegistration(UUID companyId, UUID agentId, UUID runId, String containerId, String masks,
                                  String ca) {
    /** A registration without masked secrets. */
    public SandboxRegistration(UUID companyId, UUID agentId, UUID runId, String containerId) {
        this(companyId, agentId, runId, containerId, null, null);
    }

    @Override
    public String toString() {
        return "SandboxRegistration[company_id=" + companyId + ", agent_id=" + agentId + ", run_id=" + runId
                + ", container_id=" + containerId + ", masks=" + (masks == null ? "none" : "sealed") + ", ca=" + ca
                + "]";
    }
}
