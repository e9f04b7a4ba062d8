package io.trimus.adapter.container;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.engine.DockerClientProducer;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.DockerAdapterConfig;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An engine that cannot be reached ends the run FAILED with the reason within seconds, never a hang. */
class EngineUnreachableTest {

    private static final DockerDefaults DEFAULTS = new DockerDefaults(100, "64m", List.of(), 3600);

    private final List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();

    @Test
    void aSocketThatDoesNotExistFailsTheRunWithin10Seconds() throws Exception {
        String host = "unix:///tmp/trimus-no-engine-" + UUID.randomUUID() + ".sock";

        RunStatusChanged end = runAgainst(host);

        assertThat(end.status()).isEqualTo(RunState.FAILED);
        assertThat(end.error()).isEqualTo("Docker engine unreachable at " + host + ": the socket does not exist");
    }

    @Test
    void aClosedTcpPortFailsTheRunWithin10Seconds() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        String host = "tcp://127.0.0.1:" + port;

        RunStatusChanged end = runAgainst(host);

        assertThat(end.status()).isEqualTo(RunState.FAILED);
        assertThat(end.error()).isEqualTo("Docker engine unreachable at " + host + ": connection refused");
    }

    private RunStatusChanged runAgainst(String host) throws Exception {
        RunRequested run = Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                UUID.randomUUID(), "docker", new ObjectMapper().valueToTree(Map.of("image", "busybox:1.36")), null,
                null, Instant.now());
        DockerAdapterConfig config = DockerAdapterConfig.parse(run.adapterConfig());
        try (DockerClient docker = DockerClientProducer.connect(host)) {
            DockerContainerRunner runner = Wiring.runner(docker, reported::add, host, 65536);
            RunExecutor executor = Wiring.executor(runner, reported::add, RunStarts.UNRECORDED, 1, 1);
            long start = System.nanoTime();
            executor.submit(run, ContainerPolicy.forDocker(config, DEFAULTS, run));

            await().atMost(Duration.ofSeconds(10)).until(() -> !reported.isEmpty());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            executor.stop();
        }
        assertThat(reported).hasSize(1);
        RunStatusChanged end = reported.get(0);
        assertThat(end.runId()).isEqualTo(run.runId());
        assertThat(end.error()).doesNotContain("Exception", "java.", "\tat ");
        return end;
    }
}
