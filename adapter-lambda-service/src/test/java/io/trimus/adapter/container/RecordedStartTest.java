package io.trimus.adapter.container;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The run's start is recorded on trimus.adapter.leases while the runner inspects the image, and nothing of the run
 * exists before the broker's answer: a run another process recorded first creates no container and reports nothing,
 * one whose start could not be recorded creates none and ends FAILED, and one whose answer is late waits for it.
 */
class RecordedStartTest {

    private final DockerClient docker = DockerClients.local();
    private final String company = UUID.randomUUID().toString();
    private final List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();
    private final DockerContainerRunner runner = Wiring.runner(docker, reported::add, "local", 65536);

    @AfterEach
    void cleanUp() throws Exception {
        Containers.removeByLabel(docker, ContainerPolicy.LABEL_COMPANY, company);
        docker.close();
    }

    @Test
    void aRunAnotherProcessStartedFirstCreatesNothingAndReportsNothing() {
        RunRequested run = run("echo started");

        runner.run(run, policy(run), handle(run), CompletableFuture.completedFuture(RunStarts.Start.TAKEN));

        assertThat(reported).isEmpty();
        assertThat(Containers.findByLabel(docker, ContainerPolicy.LABEL_RUN, run.runId().toString())).isEmpty();
    }

    @Test
    void aRunWhoseStartWasNotRecordedCreatesNothingAndEndsFailed() {
        RunRequested run = run("echo started");

        runner.run(run, policy(run), handle(run), CompletableFuture.completedFuture(RunStarts.Start.NOT_RECORDED));

        assertThat(reported).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(RunState.FAILED);
            assertThat(r.error()).isEqualTo(RunStarts.NOT_RECORDED);
        });
        assertThat(Containers.findByLabel(docker, ContainerPolicy.LABEL_RUN, run.runId().toString())).isEmpty();
    }

    @Test
    void noContainerExistsUntilTheStartIsRecorded() throws Exception {
        RunRequested run = run("echo started");
        CompletableFuture<RunStarts.Start> start = new CompletableFuture<>();
        CompletableFuture<Void> running = CompletableFuture.runAsync(() -> runner.run(run, policy(run), handle(run), start));

        // for far longer than inspecting the image and creating a container take, nothing of the run appears
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> Containers.findByLabel(docker, ContainerPolicy.LABEL_RUN, run.runId().toString()).isEmpty()
                        && reported.isEmpty());
        start.complete(RunStarts.Start.GO);
        running.get(60, TimeUnit.SECONDS);

        assertThat(reported).extracting(RunStatusChanged::status).containsExactly(RunState.RUNNING, RunState.SUCCEEDED);
    }

    private RunRequested run(String script) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.fromString(company), UUID.randomUUID(), "docker",
                new ObjectMapper().valueToTree(Map.of("image", TestImages.busybox(docker),
                        "command", List.of("sh", "-c", script))), null, null, Instant.now());
    }

    private static ContainerPolicy policy(RunRequested run) {
        return ContainerPolicy.forDocker(DockerAdapterConfig.parse(run.adapterConfig()),
                new DockerDefaults(100, "64m", List.of(), 3600), run);
    }

    private static RunHandle handle(RunRequested run) {
        RunHandle handle = new RunHandle(run);
        handle.begin();
        return handle;
    }
}
