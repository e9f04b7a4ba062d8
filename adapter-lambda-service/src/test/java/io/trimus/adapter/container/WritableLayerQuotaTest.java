package io.trimus.adapter.container;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.HostConfig;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.support.Engine;
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

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code "writable": true} root is a disk the agent can fill: it gets a size limit (TRIMUS_DOCKER_WRITABLE_LAYER_SIZE)
 * where the engine's storage driver can enforce one, and where it cannot (overlay2 on ext4, this test machine's
 * engine) the run is REJECTED unless the operator allows it unbounded. Against the real engine: each test asks the
 * engine itself whether it takes a size and then holds the adapter to the promise for that kind of engine, so every
 * test runs (and can fail) on every engine.
 */
class WritableLayerQuotaTest {

    private static final String REFUSAL = "adapter_config.writable asks for a writable root filesystem, whose size"
            + " this Docker engine's storage driver cannot limit (";

    private final DockerClient docker = DockerClients.local();
    private final String company = UUID.randomUUID().toString();
    private final List<RunStatusChanged> reported = new CopyOnWriteArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        Containers.removeByLabel(docker, ContainerPolicy.LABEL_COMPANY, company);
        docker.close();
    }

    private RunRequested run(Map<String, ?> config) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.fromString(company), UUID.randomUUID(),
                "docker", new ObjectMapper().valueToTree(config), null, null, Instant.now());
    }

    /** Runs to the end on this thread, as a worker of the executor would; returns the last report. */
    private RunStatusChanged execute(DockerContainerRunner runner, RunRequested run) {
        ContainerPolicy policy = ContainerPolicy.forDocker(DockerAdapterConfig.parse(run.adapterConfig()),
                new DockerDefaults(100, "64m", List.of(), 3600), run);
        RunHandle handle = new RunHandle(run);
        handle.begin();
        runner.run(run, policy, handle);
        return reported.get(reported.size() - 1);
    }

    private Map<String, Object> writable(String script) {
        return Map.of("image", TestImages.busybox(docker), "writable", true, "user", "0",
                "command", List.of("sh", "-c", script));
    }

    /** The test's own question to the engine: does it take a size limit on a container's writable layer? */
    private boolean engineBoundsWritableLayers() {
        try {
            String id = docker.createContainerCmd(TestImages.busybox(docker))
                    .withName("trimus-test-quota-" + UUID.randomUUID())
                    .withLabels(Map.of(ContainerPolicy.LABEL_COMPANY, company))
                    .withHostConfig(HostConfig.newHostConfig().withStorageOpt(Map.of("size", "64m")))
                    .exec().getId();
            docker.removeContainerCmd(id).withForce(true).exec();
            return true;
        } catch (DockerException refused) {
            return false;
        }
    }

    @Test
    void aWritableRootIsLimitedWhereTheEngineCanDoItAndRejectedWithNothingCreatedWhereItCannot() {
        if (engineBoundsWritableLayers()) {
            aWritableRootIsLimited();
            return;
        }
        DockerContainerRunner runner = Wiring.runner(docker, reported::add, "local", 65536);
        long since = System.currentTimeMillis() / 1000;

        for (int attempt = 0; attempt < 2; attempt++) {   // the first asks the engine, the second knows
            RunRequested run = run(writable("echo pwned > /fill && echo wrote"));
            RunStatusChanged end = execute(runner, run);

            assertThat(end.status()).as("attempt " + attempt).isEqualTo(RunState.REJECTED);
            assertThat(end.error()).startsWith(REFUSAL).endsWith("), and this Trimus runs no unbounded one (the"
                    + " operator sets TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER); leave writable unset to run on a"
                    + " read-only root with a writable /tmp");
            assertThat(reported).extracting(RunStatusChanged::status).doesNotContain(RunState.RUNNING);
            assertThat(Engine.containersCreated(run.runId(), since)).as("containers created").isZero();
        }

        RunStatusChanged readOnly = execute(runner, run(Map.of("image", TestImages.busybox(docker),
                "command", List.of("sh", "-c", "echo fine"))));
        assertThat(readOnly.status()).as("a read-only root is not affected").isEqualTo(RunState.SUCCEEDED);
    }

    @Test
    void theOperatorMayLetItRunUnboundedWhereTheEngineCannotLimitItAndRunningSaysSo() {
        boolean bounded = engineBoundsWritableLayers();
        DockerContainerRunner runner = Wiring.runner(docker, reported::add, "local", 65536, true);

        RunStatusChanged end = execute(runner, run(writable("echo agent was here > /written && cat /written")));

        assertThat(end.status()).isEqualTo(RunState.SUCCEEDED);
        assertThat(end.output()).isEqualTo("agent was here\n");
        if (bounded) {
            assertThat(reported).filteredOn(e -> e.status() == RunState.RUNNING).singleElement()
                    .satisfies(running -> assertThat(running.notes()).as("limited, so nothing to say").isEmpty());
            return;
        }
        assertThat(reported).filteredOn(e -> e.status() == RunState.RUNNING).singleElement()
                .satisfies(running -> assertThat(running.notes()).containsExactly("the writable root filesystem has"
                        + " no size limit: the Docker engine's storage driver cannot enforce one"
                        + " (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER=true)"));
    }

    /**
     * Under gVisor a writable root is written to gVisor's own overlay file on the engine's disk (a gigabyte written
     * there showed neither in the container's layer nor against its memory limit), whatever the storage driver: it
     * is REJECTED unless the operator allows unbounded roots, and then RUNNING says why it has no limit.
     */
    @Test
    void underGvisorAWritableRootCountsAsUnboundedOnEveryEngine() {
        long since = System.currentTimeMillis() / 1000;
        RunRequested refused = run(writable("echo never"));
        ContainerPolicy policy = ContainerPolicy.forDocker(DockerAdapterConfig.parse(refused.adapterConfig()),
                new DockerDefaults(100, "64m", List.of(), 3600), refused).underRuntime("runsc");
        RunHandle handle = new RunHandle(refused);
        handle.begin();
        Wiring.runner(docker, reported::add, "local", 65536).run(refused, policy, handle);

        RunStatusChanged end = reported.get(reported.size() - 1);
        assertThat(end.status()).isEqualTo(RunState.REJECTED);
        assertThat(end.error()).startsWith("adapter_config.writable asks for a writable root filesystem, whose size"
                + " Trimus cannot limit under gVisor (runtime runsc: the root is written to gVisor's own overlay file");
        assertThat(Engine.containersCreated(refused.runId(), since)).as("containers created").isZero();
    }

    /** On an engine that takes a size: 1g by default (TRIMUS_DOCKER_WRITABLE_LAYER_SIZE), so 2 GiB cannot be written. */
    private void aWritableRootIsLimited() {
        DockerContainerRunner runner = Wiring.runner(docker, reported::add, "local", 65536);

        RunStatusChanged end = execute(runner, run(writable(
                "head -c 2147483648 /dev/zero > /fill; echo fill exit $?; du -m /fill")));

        assertThat(end.status()).isEqualTo(RunState.SUCCEEDED);
        assertThat(end.output()).contains("fill exit 1").containsPattern("\\n10[0-9][0-9]\\t/fill|\\n9[0-9][0-9]\\t/fill");
    }
}
