package io.trimus.adapter.local;

import io.quarkus.runtime.Startup;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.events.adapter.AdapterType;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/** claude_local: Claude Code as a host process (trusted single-tenant hosts only). */
@Startup
@Singleton
public class ClaudeLocalAdapter extends LocalCliAdapter {
    @Inject
    public ClaudeLocalAdapter(TrimusConfig config, RunSecrets secrets, LocalProcessRunner runner) {
        super(AdapterType.CLAUDE_LOCAL, config, secrets, runner, System.getenv());
    }
}
