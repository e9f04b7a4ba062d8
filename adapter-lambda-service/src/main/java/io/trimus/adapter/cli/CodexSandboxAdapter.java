package io.trimus.adapter.cli;

import io.quarkus.runtime.Startup;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.container.RunExecutor;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.events.adapter.AdapterType;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/** codex_sandbox: the Codex CLI in a hardened container on the egress network. */
@Startup
@Singleton
public class CodexSandboxAdapter extends CliSandboxAdapter {
    @Inject
    public CodexSandboxAdapter(TrimusConfig config, RunExecutor executor, RunSecrets secrets,
            DockerEngineSwitch engine) {
        super(AdapterType.CODEX_SANDBOX, config, executor, secrets, engine);
    }
}
