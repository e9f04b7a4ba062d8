package io.trimus.events.adapter;

import java.util.Map;
import java.util.Set;

/**
 * The two agent CLIs Trimus runs (Claude Code and Codex), with what differs between them: the binary, the provider
 * key it reads and the API host it calls with it, its "skip every permission check" flag, and the extra flags an agent may add.
 */
public enum AgentCli {
    CLAUDE("claude", "ANTHROPIC_API_KEY", "api.anthropic.com", "--dangerously-skip-permissions",
            Set.of("--verbose"),
            Map.of("--max-turns", "[1-9][0-9]{0,3}",
                    "--allowedTools", "[A-Za-z0-9_(): *,.:/-]{1,500}",
                    "--disallowedTools", "[A-Za-z0-9_(): *,.:/-]{1,500}",
                    "--append-system-prompt", "(?s).{1,4000}",
                    "--fallback-model", "[A-Za-z0-9._:/-]{1,100}",
                    // bypassPermissions is the dangerous flag under another name: it goes through the guardrail only
                    "--permission-mode", "default|acceptEdits|plan")),
    CODEX("codex", "OPENAI_API_KEY", "api.openai.com", "--dangerously-bypass-approvals-and-sandbox",
            Set.of("--skip-git-repo-check", "--full-auto"),
            Map.of("--sandbox", "read-only|workspace-write")); // danger-full-access likewise

    private final String binary;
    private final String apiKeyEnv;
    private final String apiHost;
    private final String dangerousFlag;
    private final Set<String> extraFlags;
    private final Map<String, String> extraOptions;

    AgentCli(String binary, String apiKeyEnv, String apiHost, String dangerousFlag, Set<String> extraFlags,
             Map<String, String> extraOptions) {
        this.binary = binary;
        this.apiKeyEnv = apiKeyEnv;
        this.apiHost = apiHost;
        this.dangerousFlag = dangerousFlag;
        this.extraFlags = extraFlags;
        this.extraOptions = extraOptions;
    }

    /** The CLI for a claude_* or codex_* adapter; null for the other adapters. */
    public static AgentCli of(AdapterType type) {
        return switch (type) {
            case CLAUDE_SANDBOX, CLAUDE_LOCAL -> CLAUDE;
            case CODEX_SANDBOX, CODEX_LOCAL -> CODEX;
            default -> null;
        };
    }

    /** The binary's basename: {@code claude} or {@code codex}. */
    public String binary() {
        return binary;
    }

    /** The environment variable the CLI reads its provider key from. */
    public String apiKeyEnv() {
        return apiKeyEnv;
    }

    /**
     * The host the CLI calls its provider's API on with that key (port 443); a sandbox reaches it only when it is on
     * the company's egress allowlist.
     */
    public String apiHost() {
        return apiHost;
    }

    /** The flag that switches the CLI's own permission checks off; only the guardrail decides whether it is passed. */
    public String dangerousFlag() {
        return dangerousFlag;
    }

    /** Extra flags without a value an agent may pass. */
    Set<String> extraFlags() {
        return extraFlags;
    }

    /** Extra options taking one value an agent may pass, with the pattern the value must match. */
    Map<String, String> extraOptions() {
        return extraOptions;
    }
}
