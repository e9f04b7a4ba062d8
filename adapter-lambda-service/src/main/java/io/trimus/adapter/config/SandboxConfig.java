package io.trimus.adapter.config;

import io.smallrye.config.WithDefault;

/** Knobs of the sandboxed CLI adapters. */
public interface SandboxConfig {
    /** Process limit per CLI container unless the agent sets pids_limit (TRIMUS_SANDBOX_PIDS_LIMIT, default 100). */
    @WithDefault("100")
    long pidsLimit();

    /** Image of claude_sandbox agents that name none (TRIMUS_SANDBOX_CLAUDE_IMAGE, default trimus/claude-sandbox:latest). */
    @WithDefault("trimus/claude-sandbox:latest")
    String claudeImage();

    /** Image of codex_sandbox agents that name none (TRIMUS_SANDBOX_CODEX_IMAGE, default trimus/codex-sandbox:latest). */
    @WithDefault("trimus/codex-sandbox:latest")
    String codexImage();

    /** Size of the writable {@code /workspace} tmpfs the CLI works in (TRIMUS_SANDBOX_WORKSPACE_SIZE, default 256m). */
    @WithDefault("256m")
    String workspaceSize();

    /** Wall-clock limit of a CLI run whose agent sets no timeout_sec (TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC, default 1800). */
    @WithDefault("1800")
    int defaultTimeoutSec();
}
