package io.trimus.admin.rest;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The API host each sandboxed CLI must reach (the CLIs' own defaults; the adapters do not change them), and whether
 * a company's allowlist lets it through on 443.
 */
final class ProviderHosts {
    static final int HTTPS = 443;
    private static final Map<String, String> HOSTS = Map.of(
            "claude_sandbox", "api.anthropic.com",
            "codex_sandbox", "api.openai.com");
    private static final Map<String, String> CLIS = Map.of(
            "claude_sandbox", "Claude Code",
            "codex_sandbox", "Codex");

    private ProviderHosts() {
    }

    /** The provider API host of {@code adapterType}; empty for adapters that need none on the allowlist. */
    static Optional<String> of(String adapterType) {
        return Optional.ofNullable(adapterType == null ? null : HOSTS.get(adapterType));
    }

    /** The warning for an agent of {@code adapterType} under {@code entries}; empty when its host is allowed. */
    static Optional<String> warning(String adapterType, List<String> entries) {
        return of(adapterType).filter(host -> !allowed(entries, host, HTTPS))
                .map(host -> host + " is not on this company's allowlist: " + CLIS.get(adapterType)
                        + " in this agent's sandbox cannot reach its API, so its runs will fail.");
    }

    /**
     * Whether an entry covers {@code host} on {@code port}: an exact name or a {@code *.suffix} wildcard (sub-names
     * only), without a port (443 and 80 are open by default) or with exactly this one.
     */
    static boolean allowed(List<String> entries, String host, int port) {
        String name = host.toLowerCase(Locale.ROOT);
        for (String raw : entries) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            int colon = entry.lastIndexOf(':');
            if (colon > 0) {
                if (!entry.substring(colon + 1).equals(String.valueOf(port))) {
                    continue;
                }
                entry = entry.substring(0, colon);
            } else if (port != HTTPS && port != 80) {
                continue;
            }
            if (entry.endsWith(".")) {
                entry = entry.substring(0, entry.length() - 1);
            }
            if (entry.startsWith("*.") ? name.endsWith(entry.substring(1)) : name.equals(entry)) {
                return true;
            }
        }
        return false;
    }
}
