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

    /** The name of the model provider Trimus gives Codex: OpenAI's Responses API over HTTPS only. */
    public static final String CODEX_PROVIDER = "openai-https";

    /**
     * Arguments that go right after the binary: nothing for Claude Code; for Codex, config overrides that
     * <ul>
     *   <li>switch off analytics and the update check;</li>
     *   <li>make the model provider a copy of the built-in {@code openai} one that takes its key from
     *       {@code OPENAI_API_KEY} (Codex 0.171's {@code exec} reads only {@code CODEX_API_KEY} or a login for the
     *       built-in provider, so a company's OpenAI key would otherwise never be sent) and speaks the Responses API
     *       over HTTPS only: the built-in provider first tries a WebSocket, seven times, before it falls back;</li>
     *   <li>disable plugins and apps, whose sync calls {@code chatgpt.com} and {@code api.github.com} on every start
     *       although a run needs neither.</li>
     * </ul>
     * With these, the only host Codex calls is {@code api.openai.com} ({@code POST /v1/responses}).
     */
    public static List<String> leadingArgs(AgentCli cli) {
        if (cli == AgentCli.CODEX) {
            return List.of("-c", "analytics.enabled=false", "-c", "check_for_update_on_startup=false",
                    "-c", "model_provider=" + CODEX_PROVIDER,
                    "-c", "model_providers." + CODEX_PROVIDER + "={name=\"OpenAI\",base_url=\"https://"
                            + AgentCli.CODEX.apiHost() + "/v1\",env_key=\"" + AgentCli.CODEX.apiKeyEnv()
                            + "\",wire_api=\"responses\",supports_websockets=false}",
                    "--disable", "plugins", "--disable", "apps");
        }
        return List.of();
    }
}
