package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.UUID;

/**
 * Body of egress-service's {@code PUT /internal/sandboxes/{ip}}: the adapter service tells the resolver which
 * company, agent and run a sandbox address belongs to, before the sandbox's process can send a packet.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SandboxRegistration(UUID companyId, UUID agentId, UUID runId, String containerId) {
}
