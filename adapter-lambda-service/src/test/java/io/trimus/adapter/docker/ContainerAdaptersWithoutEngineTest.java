package io.trimus.adapter.docker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.trimus.adapter.cli.ClaudeSandboxAdapter;
import io.trimus.adapter.cli.CodexSandboxAdapter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TRIMUS_DOCKER_ENABLED=false (the adapter on Kubernetes): every container run is REJECTED with the reason before
 * anything touches an engine. The executor and the orphan reaper are absent here, so a run that got past the switch,
 * or a boot reconciliation that asked the engine, would fail this test.
 */
class ContainerAdaptersWithoutEngineTest {

    private final List<RunStatusChanged> reported = new ArrayList<>();

    private RunDispatcher dispatcherWithoutEngine() {
        TrimusConfig config = new SmallRyeConfigBuilder().withMapping(TrimusConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withDefaultValue("trimus.docker.enabled", "false")
                .build().getConfigMapping(TrimusConfig.class);
        DockerEngineSwitch engine = new DockerEngineSwitch(config);
        RunSecrets secrets = Wiring.noSecrets();
        return new RunDispatcher(Wiring.registry(
                new DockerAdapter(config, null, null, engine, Wiring.noSecrets()),
                new ClaudeSandboxAdapter(config, null, secrets, engine),
                new CodexSandboxAdapter(config, null, secrets, engine)), reported::add);
    }

    private static RunRequested run(String adapterType, Map<String, ?> config) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                adapterType, new ObjectMapper().valueToTree(config), null, "fix the build", Instant.now());
    }

    @Test
    void everyContainerRunIsRejectedWithTheReasonAndNothingStarts() {
        RunDispatcher dispatcher = dispatcherWithoutEngine();

        dispatcher.dispatch(run("docker", Map.of("image", "busybox")));
        dispatcher.dispatch(run("claude_sandbox", Map.of()));
        dispatcher.dispatch(run("codex_sandbox", Map.of()));

        assertThat(reported).hasSize(3).allSatisfy(status -> {
            assertThat(status.status()).isEqualTo(RunState.REJECTED);
            assertThat(status.error()).contains("need a Docker engine", "TRIMUS_DOCKER_ENABLED=false",
                    "remote adapter");
        });
    }

    @Test
    void bootReconciliationDoesNotAskForAnEngine() {
        dispatcherWithoutEngine().reconcile();

        assertThat(reported).isEmpty();
    }
}
