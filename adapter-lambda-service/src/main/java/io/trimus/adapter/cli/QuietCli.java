package io.trimus.adapter.cli;

import io.trimus.events.adapter.AgentCli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What keeps a sandboxed CLI to its provider's API through the egress proxy: Claude Code's documented switches for
 * non-essential traffic (telemetry, error reports, the auto-updater), and for Codex, which documents no environment
 * variable for it, its config keys as {@code -c} overrides. Both CLIs honour HTTPS_PROXY themselves (Claude Code's
 * native binary, Codex's Rust client); {@code NODE_USE_ENV_PROXY=1} makes Node ≥ 22.21 processes they start (e.g. an
 * npx-launched MCP server) use it too.
 */
public final class QuietCli {

    private QuietCli() {
    }

    /** The environment every sandbox of {@code cli} gets. */
    public static Map<String, String> env(AgentCli cli) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NODE_USE_ENV_PROXY", "1");
        if (cli == AgentCli.CLAUDE) {
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
            env.put("DISABLE_TELEMETRY", "1");
            env.put("DISABLE_ERROR_REPORTING", "1");
            env.put("DISABLE_AUTOUPDATER", "1");
        }
        return Map.copyOf(env);
    }

    /** Arguments that go right after the binary: Codex's config overrides, nothing for Claude Code. */
    public static List<String> leadingArgs(AgentCli cli) {
        if (cli == AgentCli.CODEX) {
            return List.of("-c", "analytics.enabled=false", "-c", "check_for_update_on_startup=false");
        }
        return List.of();
    }
}
