package io.trimus.adapter.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.adapter.support.Runs;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A host process inherits the service's environment minus the strip list, plus its key and the run context. */
class LocalEnvironmentTest {

    @Test
    void theStripListRemovesExactNamesAndPrefixesAndTrimusOwnSettingsNeverPass() {
        LocalEnvironment environment = new LocalEnvironment(List.of("DATABASE_URL", "AWS_*", " "));
        RunRequested run = Runs.of(UUID.randomUUID(), "claude_local", new ObjectMapper().createObjectNode(),
                new IssueRef("T-1", "Title", "Body"), "input");

        Map<String, String> env = environment.build(Map.of("PATH", "/usr/bin", "HOME", "/home/svc",
                "DATABASE_URL", "postgres://secret", "AWS_SECRET_ACCESS_KEY", "x", "AWSOME", "kept",
                "TRIMUS_ENCRYPTION_KEY", "k", "TRIMUS_DOCKER_HOST", "unix:///x"), run,
                Map.of("ANTHROPIC_API_KEY", "sk-1"));

        assertThat(env).containsEntry("PATH", "/usr/bin").containsEntry("HOME", "/home/svc")
                .containsEntry("AWSOME", "kept").containsEntry("ANTHROPIC_API_KEY", "sk-1")
                .containsEntry("TRIMUS_RUN_ID", run.runId().toString())
                .containsEntry("TRIMUS_AGENT_ID", run.agentId().toString())
                .containsEntry("TRIMUS_ISSUE_ID", "T-1").containsEntry("TRIMUS_INPUT", "input")
                .doesNotContainKeys("DATABASE_URL", "AWS_SECRET_ACCESS_KEY", "TRIMUS_ENCRYPTION_KEY",
                        "TRIMUS_DOCKER_HOST");
    }
}
