package io.trimus.egress.sandbox;

import java.util.UUID;

/** A registered sandbox: whose it is, by the address its packets come from. */
public record Sandbox(String ip, UUID companyId, UUID agentId, UUID runId, String containerId) {

    /**
     * True for a canary's probe sandbox ({@link io.trimus.events.CanaryRequested#PROBE_AGENT_ID}): its denials are
     * the canary's checks, not anomalies.
     */
    public boolean isCanaryProbe() {
        return io.trimus.events.CanaryRequested.isProbe(agentId);
    }
}
