package io.trimus.adapter.config;

import io.trimus.events.adapter.AgentCli;
import io.trimus.events.adapter.DockerAdapterConfig;

import java.util.Locale;

/**
 * The defaults of the sandboxed CLI adapters, checked once at boot.
 *
 * @param pidsLimit     TRIMUS_SANDBOX_PIDS_LIMIT
 * @param claudeImage   TRIMUS_SANDBOX_CLAUDE_IMAGE
 * @param codexImage    TRIMUS_SANDBOX_CODEX_IMAGE
 * @param workspaceSize TRIMUS_SANDBOX_WORKSPACE_SIZE
 * @param timeoutSec    TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC
 */
public record SandboxDefaults(long pidsLimit, String claudeImage, String codexImage, String workspaceSize,
                              int timeoutSec) {

    public SandboxDefaults {
        if (pidsLimit <= 0) {
            throw new IllegalArgumentException("TRIMUS_SANDBOX_PIDS_LIMIT must be greater than 0, got " + pidsLimit);
        }
        if (workspaceSize == null || !DockerDefaults.TMPFS_SIZE.matcher(workspaceSize.toLowerCase(Locale.ROOT)).matches()) {
            throw new IllegalArgumentException(
                    "TRIMUS_SANDBOX_WORKSPACE_SIZE must be a size like 256m, got '" + workspaceSize + "'");
        }
        if (timeoutSec < DockerAdapterConfig.MIN_TIMEOUT_SEC) {
            throw new IllegalArgumentException("TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC must be at least "
                    + DockerAdapterConfig.MIN_TIMEOUT_SEC + ", got " + timeoutSec);
        }
        workspaceSize = workspaceSize.toLowerCase(Locale.ROOT);
    }

    /** The defaults configured for this service. */
    public static SandboxDefaults from(SandboxConfig config) {
        return new SandboxDefaults(config.pidsLimit(), config.claudeImage(), config.codexImage(),
                config.workspaceSize(), config.defaultTimeoutSec());
    }

    /** The image of agents of this CLI that name none. */
    public String image(AgentCli cli) {
        return cli == AgentCli.CLAUDE ? claudeImage : codexImage;
    }
}

