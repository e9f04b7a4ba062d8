package io.trimus.egress.sandbox;

import java.util.UUID;

/** A registered sandbox: whose it is, by the address its packets come from. */
public record Sandbox(String ip, UUID companyId, UUID agentId, UUID runId, String containerId) {
}
