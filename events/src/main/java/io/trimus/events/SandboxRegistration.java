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
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SandboxRegistration(UUID companyId, UUID agentId, UUID runId, String containerId) {
}
