package io.trimus.events.adapter;

import io.trimus.events.AllowlistEntryText;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The provider API host a sandboxed CLI agent must reach ({@link AgentCli#apiHost()}, port 443), and whether a
 * company's egress allowlist lets it through: what run-service warns about when such an agent is created and the
 * dashboard shows next to it. Matches entries as egress-service does: the name itself or a {@code *.suffix} wildcard
 * over one of its parent domains, without a port (443 is open by default) or with {@code :443}; an object entry's text
 * ({@link AllowlistEntryText}) by its {@code host} and {@code ports} (none listed, or 443 among them), whatever
 * request rules it has (they narrow what may be asked of the host, not whether it is reachable).
 */
public final class ProviderHost {
    private static final int HTTPS = 443;

    private ProviderHost() {
    }

    /** The API host an agent of {@code type} must reach; empty for adapters whose sandbox needs none. */
    public static Optional<String> of(AdapterType type) {
        if (type != AdapterType.CLAUDE_SANDBOX && type != AdapterType.CODEX_SANDBOX) {
            return Optional.empty();
        }
        return Optional.of(AgentCli.of(type).apiHost());
    }

    /** As {@link #of(AdapterType)} for an adapter's wire name; empty for an unknown one. */
    public static Optional<String> of(String adapterType) {
        return adapterType == null ? Optional.empty() : AdapterType.fromWire(adapterType).flatMap(ProviderHost::of);
    }

    /** Whether one of the allowlist's {@code entries} lets {@code host} through on 443. */
    public static boolean reachable(List<String> entries, String host) {
        String name = host.toLowerCase(Locale.ROOT);
        for (String raw : entries) {
            if (AllowlistEntryText.isObject(raw)) {
                if (AllowlistEntryText.hostPorts(raw).filter(e -> e.ports().isEmpty() || e.ports().contains(HTTPS))
                        .filter(e -> matches(e.host(), name)).isPresent()) {
                    return true;
                }
                continue;
            }
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            int colon = entry.lastIndexOf(':');
            if (colon >= 0) {
                if (!entry.substring(colon + 1).equals(String.valueOf(HTTPS))) {
                    continue;
                }
                entry = entry.substring(0, colon);
            }
            if (entry.endsWith(".")) {
                entry = entry.substring(0, entry.length() - 1);
            }
            if (matches(entry, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String pattern, String name) {
        return pattern.startsWith("*.") ? name.endsWith(pattern.substring(1)) : name.equals(pattern);
    }
}
