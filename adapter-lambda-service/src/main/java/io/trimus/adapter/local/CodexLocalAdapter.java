package io.trimus.adapter.local;

import io.quarkus.runtime.Startup;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.events.adapter.AdapterType;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/** codex_local: the Codex CLI as a host process (trusted single-tenant hosts only). */
@Startup
@Singleton
public class CodexLocalAdapter extends LocalCliAdapter {
    @Inject
    public CodexLocalAdapter(TrimusConfig config, RunSecrets secrets, LocalProcessRunner runner) {
        super(AdapterType.CODEX_LOCAL, config, secrets, runner, System.getenv());
    }
}
