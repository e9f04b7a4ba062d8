package io.trimus.admin.rest.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.admin.view.Views.Flag;

import java.util.ArrayList;
import java.util.List;

/**
 * The isolation a run got, in plain words, derived from its adapter type and the agent's adapter_config the way
 * the adapter service applies them (DESIGN.md §5). Service-wide defaults the dashboard cannot see are named by
 * their setting.
 */
final class IsolationView {
    static final String EGRESS_NETWORK = "trimus-egress-allowlist";

    private IsolationView() {
    }

    /** One sentence: where the code ran and how much it was held in. */
    static String summary(String adapterType) {
        return switch (adapterType == null ? "" : adapterType) {
            case "docker" -> "Ran in a hardened container built from the operator's image.";
            case "claude_sandbox", "codex_sandbox" ->
                    "Ran the CLI in a hardened container on the egress network, behind the Trimus resolver.";
            case "claude_local", "codex_local" ->
                    "Ran as a process on the host: no isolation beyond the gates (TRIMUS_LOCAL_ADAPTERS, binary allowlist).";
            case "lambda", "remote" -> "Ran off-host; its isolation is the remote side's.";
            default -> "Adapter type " + adapterType + " is not known to this dashboard.";
        };
    }

    /** The isolation properties, one per line. */
    static List<Flag> flags(String adapterType, JsonNode config) {
        JsonNode cfg = config == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : config;
        List<Flag> flags = new ArrayList<>();
        switch (adapterType == null ? "" : adapterType) {
            case "docker" -> {
                flags.add(new Flag("Runs as", "container (image " + text(cfg, "image", "?") + ")"));
                boolean writable = cfg.path("writable").asBoolean(false);
                flags.add(new Flag("Root filesystem", writable
                        ? "writable (the agent opted out with \"writable\": true), at most"
                        + " TRIMUS_DOCKER_WRITABLE_LAYER_SIZE where the storage driver can enforce it, else refused"
                        + " unless TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER"
                        : "read-only; /tmp is a tmpfs (nosuid, nodev" + (cfg.path("tmp_noexec").asBoolean(false)
                        ? ", noexec" : "") + ", size TRIMUS_DOCKER_TMPFS_SIZE, default 64m)"));
                String network = text(cfg, "network", "none");
                flags.add(new Flag("Network", network.equals("none") ? "none (no network at all)"
                        : network.equals(EGRESS_NETWORK)
                        ? EGRESS_NETWORK + ": DNS only through the Trimus resolver, allow-listed names only"
                        : network + " (DNS is not filtered on this network)"));
                containerLimits(flags, cfg, "TRIMUS_DOCKER_PIDS_LIMIT", "TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC");
                flags.add(new Flag("Environment", "only the agent's env plus TRIMUS_AGENT_ID, TRIMUS_RUN_ID, "
                        + "TRIMUS_ISSUE_*, TRIMUS_INPUT; nothing of the host"));
            }
            case "claude_sandbox", "codex_sandbox" -> {
                flags.add(new Flag("Runs as", "container (image " + text(cfg, "image",
                        adapterType.startsWith("claude") ? "TRIMUS_SANDBOX_CLAUDE_IMAGE" : "TRIMUS_SANDBOX_CODEX_IMAGE")
                        + ")"));
                flags.add(new Flag("Root filesystem", "read-only; /tmp and /workspace are tmpfs"));
                flags.add(new Flag("Network", EGRESS_NETWORK
                        + ": DNS only through the Trimus resolver, allow-listed names only"));
                containerLimits(flags, cfg, "TRIMUS_SANDBOX_PIDS_LIMIT", "TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC");
                flags.add(new Flag("Environment", "curated: the provider key, run context, HOME=/tmp; nothing of the host"));
                dangerousFlag(flags, cfg);
            }
            case "claude_local", "codex_local" -> {
                flags.add(new Flag("Runs as", "a process on the host (no container)"));
                flags.add(new Flag("Filesystem", "the host's; working directory is the agent's home under TRIMUS_HOME"));
                flags.add(new Flag("Network", "the host's, unfiltered"));
                flags.add(new Flag("Environment", "the adapter service's, minus TRIMUS_LOCAL_ENV_STRIP"));
                flags.add(new Flag("Binary", text(cfg, "command", adapterType.startsWith("claude") ? "claude" : "codex")
                        + " (must pass the binary allowlist)"));
                flags.add(new Flag("Time limit", seconds(cfg, "TRIMUS_LOCAL_DEFAULT_TIMEOUT_SEC")));
                dangerousFlag(flags, cfg);
            }
            case "lambda", "remote" -> flags.add(new Flag("Runs as", "off-host"));
            default -> flags.add(new Flag("Runs as", "unknown"));
        }
        return flags;
    }

    private static void containerLimits(List<Flag> flags, JsonNode cfg, String pidsDefault, String timeoutDefault) {
        flags.add(new Flag("Capabilities", "all dropped (--cap-drop ALL), no-new-privileges"));
        flags.add(new Flag("Process limit", cfg.has("pids_limit") ? cfg.get("pids_limit").asText() + " processes"
                : "the service default (" + pidsDefault + ", 100 unless changed)"));
        flags.add(new Flag("Memory", (cfg.has("memory") ? cfg.get("memory").asText()
                : "the service default (TRIMUS_DOCKER_DEFAULT_MEMORY, 1g unless changed)") + ", swap pinned to the same"));
        flags.add(new Flag("CPUs", cfg.has("cpus") ? cfg.get("cpus").asText()
                : "the service default (TRIMUS_DOCKER_DEFAULT_CPUS, 1 unless changed)"));
        flags.add(new Flag("Time limit", seconds(cfg, timeoutDefault)));
        flags.add(new Flag("Log on disk", "rotated: at most TRIMUS_DOCKER_LOG_MAX_FILE files of"
                + " TRIMUS_DOCKER_LOG_MAX_SIZE (2 of 10m unless changed)"));
    }

    private static void dangerousFlag(List<Flag> flags, JsonNode cfg) {
        if (cfg.path("dangerously_skip_permissions").asBoolean(false)) {
            flags.add(new Flag("Permission prompts", "the agent asks to skip them; dropped when "
                    + "TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS is on (see the notes, SEC-015)"));
        }
    }

    private static String seconds(JsonNode cfg, String fallback) {
        return cfg.has("timeout_sec") ? cfg.get("timeout_sec").asText() + " s" : "the service default (" + fallback + ")";
    }

    private static String text(JsonNode cfg, String field, String fallback) {
        JsonNode node = cfg.path(field);
        if (node.isArray()) {
            List<String> parts = new ArrayList<>();
            node.forEach(n -> parts.add(n.asText()));
            return String.join(" ", parts);
        }
        return node.isValueNode() && !node.asText().isBlank() ? node.asText() : fallback;
    }
}
