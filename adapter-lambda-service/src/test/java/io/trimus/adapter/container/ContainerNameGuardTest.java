package io.trimus.adapter.container;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TestImages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine-level guard behind the dispatcher's in-memory dedupe: a run whose container name is already
 * taken (a delivery this process no longer remembers) starts nothing, reports nothing and leaves the
 * existing container alone.
 */
class ContainerNameGuardTest {

    private final DockerClient docker = DockerClients.local();
    private final String company = UUID.randomUUID().toString();

    @AfterEach
    void cleanUp() throws Exception {
        Containers.removeByLabel(docker, ContainerPolicy.LABEL_COMPANY, company);
        docker.close();
    }

    @Test
    void aTakenContainerNameMeansTheRunIsAlreadyExecuting() {
        String image = TestImages.busybox(docker);
        RunRequested run = Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.fromString(company),
                UUID.randomUUID(), "docker", new ObjectMapper().valueToTree(Map.of("image", image,
                "command", List.of("sh", "-c", "echo second"))), null, null, Instant.now());
        String existing = docker.createContainerCmd(image).withName("trimus-run-" + run.runId())
                .withLabels(Map.of(ContainerPolicy.LABEL_COMPANY, company, ContainerPolicy.LABEL_RUN,
                        run.runId().toString()))
                .withCmd("sleep", "300").exec().getId();
        List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();
        DockerContainerRunner runner = Wiring.runner(docker, reported::add, "local", 65536);
        ContainerPolicy policy = ContainerPolicy.forDocker(DockerAdapterConfig.parse(run.adapterConfig()),
                new DockerDefaults(100, "64m", List.of(), 3600), run);
        RunHandle handle = new RunHandle(run);
        handle.begin();

        runner.run(run, policy, handle);

        assertThat(reported).isEmpty();
        assertThat(Containers.findByLabel(docker, ContainerPolicy.LABEL_RUN, run.runId().toString()))
                .singleElement().satisfies(c -> assertThat(c.getId()).isEqualTo(existing));
    }
}
