package io.trimus.admin.rest.company;

import io.trimus.events.adapter.ProviderHost;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's words for a sandboxed CLI agent whose provider API host ({@link ProviderHost}) a company's
 * allowlist does not let through.
 */
final class ProviderHosts {
    private static final Map<String, String> CLIS = Map.of(
            "claude_sandbox", "Claude Code",
            "codex_sandbox", "Codex");

    private ProviderHosts() {
    }

    /** The provider API host of {@code adapterType}; empty for adapters that need none on the allowlist. */
    static Optional<String> of(String adapterType) {
        return ProviderHost.of(adapterType);
    }

    /** The warning for an agent of {@code adapterType} under {@code entries}; empty when its host is allowed. */
    static Optional<String> warning(String adapterType, List<String> entries) {
        return of(adapterType).filter(host -> !ProviderHost.reachable(entries, host))
                .map(host -> host + " is not on this company's allowlist: " + CLIS.get(adapterType)
                        + " in this agent's sandbox cannot reach its API, so its runs will fail.");
    }
}
