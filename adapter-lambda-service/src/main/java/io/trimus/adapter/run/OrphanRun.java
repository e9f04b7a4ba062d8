package io.trimus.adapter.run;

import java.util.UUID;

/** A run whose execution was left behind by a previous process of the adapter service and has been ended. */
public record OrphanRun(UUID runId, UUID companyId, UUID agentId) {
}
