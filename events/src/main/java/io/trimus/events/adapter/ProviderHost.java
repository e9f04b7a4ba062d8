package io.trimus.events.adapter;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The provider API host a sandboxed CLI agent must reach ({@link AgentCli#apiHost()}, port 443), and whether a
 * company's egress allowlist lets it through: what run-service warns about when such an agent is created and the
 * dashboard shows next to it. Matches entries as egress-service does: the name itself or a {@code *.suffix} wildcard
 * over one of its parent domains, without a port (443 is open by default) or with {@code :443}.
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
            if (entry.startsWith("*.") ? name.endsWith(entry.substring(1)) : name.equals(entry)) {
                return true;
            }
        }
        return false;
    }
}
