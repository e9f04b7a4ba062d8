package io.trimus.adapter.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.run.RunRejected;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.testing.TestImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TRIMUS_LOCAL_ADAPTERS: off (the default) rejects every host-process run with the reason; warn and on accept. */
class LocalAdaptersGateTest {
    @TempDir
    Path dir;

    private ClaudeLocalAdapter adapter(String gate) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().withMapping(TrimusConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter()) // "5s", as Quarkus reads it
                .withDefaultValue("trimus.home", dir.toString());
        if (gate != null) {
            builder.withDefaultValue("trimus.local-adapters", gate);
        }
        SmallRyeConfig config = builder.build();
        TrimusConfig trimus = config.getConfigMapping(TrimusConfig.class);
        return new ClaudeLocalAdapter(trimus, Wiring.noSecrets(),
                Wiring.localRunner(run -> { }, RunStarts.UNRECORDED, 1024, Duration.ofSeconds(1), 1));
    }

    private RunRequested run() {
        Path claude = TestImages.cliStandInScript(dir, "claude");
        return Runs.of(UUID.randomUUID(), "claude_local",
                new ObjectMapper().valueToTree(Map.of("command", claude.toString())), null, "go");
    }

    @Test
    void offByDefaultEveryRunIsRejectedWithTheReason() {
        assertThatThrownBy(() -> adapter(null).validate(run())).isInstanceOf(RunRejected.class)
                .hasMessageContaining("TRIMUS_LOCAL_ADAPTERS=off").hasMessageContaining("claude_sandbox");
        assertThatThrownBy(() -> adapter("off").validate(run())).isInstanceOf(RunRejected.class);
    }

    @Test
    void warnAndOnLetARunThrough() {
        assertThatCode(() -> adapter("warn").validate(run())).doesNotThrowAnyException();
        assertThatCode(() -> adapter("on").validate(run())).doesNotThrowAnyException();
    }

    @Test
    void theAgentHomeLivesUnderTrimusHome() {
        UUID agent = UUID.randomUUID();

        assertThat(adapter("on").agentHome(agent)).isEqualTo(dir.toAbsolutePath().resolve("agents")
                .resolve(agent.toString()));
    }
}
