package io.trimus.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.Keys;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import io.trimus.events.adapter.RemoteAdapterConfig;
import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.TaskMacs;
import io.trimus.testing.Containers;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The remote adapter with real parts: this app under test dispatches (claim timeout 5 s in the test profile), and
 * workers are this service's own jar started beside it in worker mode, each with its own TRIMUS_DOCKER_INSTANCE, all on
 * the same Kafka broker and Docker engine. Heartbeats every second, so a lost worker is noticed within seconds.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RemoteWorkerTest {

    private static final UUID COMPANY = UUID.randomUUID();
    private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
    /** Served by worker A alone. */
    private static final String SOLO = "solo-" + SUFFIX;
    /** Served by workers A and B. */
    private static final String SHARED = "shared-" + SUFFIX;
    /** Served by worker C, which a test kills. */
    private static final String DOOMED = "doomed-" + SUFFIX;
    private static final Duration WITHIN = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private static String image;
    private static ServiceProcess workerA;
    private static ServiceProcess workerB;
    private static ServiceProcess workerC;
    private static final List<String> INSTANCES = new ArrayList<>();

    @BeforeAll
    static void startWorkers() {
        image = Engine.busybox();
        CompletableFuture<ServiceProcess> a = CompletableFuture.supplyAsync(() -> worker("a", SOLO + "," + SHARED));
        CompletableFuture<ServiceProcess> b = CompletableFuture.supplyAsync(() -> worker("b", SHARED));
        CompletableFuture<ServiceProcess> c = CompletableFuture.supplyAsync(() -> worker("c", DOOMED));
        workerA = a.join();
        workerB = b.join();
        workerC = c.join();
    }

    @AfterAll
    static void stopWorkers() {
        // side by side: each stop waits seconds for its Kafka clients to close
        java.util.stream.Stream.of(workerA, workerB, workerC).filter(java.util.Objects::nonNull)
                .map(worker -> CompletableFuture.runAsync(worker::close)).toList()
                .forEach(CompletableFuture::join);
        // a killed worker leaves its container behind (its next boot would reap it): remove it here
        INSTANCES.forEach(instance -> Containers.removeByLabel(Engine.docker(), "trimus.adapter_instance", instance));
    }

    @Test
    void aRemoteRunIsExecutedByTheWorkerOfItsTagWithItsOutput() {
        RunRequested run = remote(SOLO, "echo hello from $TRIMUS_RUN_ID; sleep 2");
        RunBus.get().request(run);

        var container = Engine.awaitRunning(run.runId());
        RunStatusChanged end = RunBus.get().awaitEnd(run.runId(), WITHIN);

        assertThat(container.getConfig().getLabels()).containsEntry("trimus.adapter_instance", instance("a"));
        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.exitCode()).isZero();
        assertThat(end.output()).contains("hello from " + run.runId());
        assertThat(RunBus.get().states(run.runId())).containsSubsequence(DISPATCHED, RUNNING, SUCCEEDED);
        assertThat(claims(workerA, run.runId())).isEqualTo(1);
    }

    @Test
    void twoWorkersOfOneTagRunEachTaskExactlyOnce() {
        List<RunRequested> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RunRequested run = remote(SHARED, "echo shared run " + i + "; sleep 1");
            sent.add(run);
            RunBus.get().request(run);
        }

        for (RunRequested run : sent) {
            RunStatusChanged end = RunBus.get().awaitEnd(run.runId(), WITHIN);
            assertThat(end.status()).as("run %s", run.runId()).isEqualTo(SUCCEEDED);
            assertThat(claims(workerA, run.runId()) + claims(workerB, run.runId())).as("claims of %s", run.runId())
                    .isEqualTo(1);
            assertThat(RunBus.get().states(run.runId()).stream().filter(s -> s == RUNNING)).hasSize(1);
            assertThat(RunBus.get().states(run.runId()).stream().filter(RunState::isTerminal)).hasSize(1);
        }
        // no run of the shared tag ever reached the dispatcher's own engine instance (a worker's container may still
        // be on its way out: the worker reports the end before it removes the container)
        sent.forEach(run -> Engine.containerOf(run.runId()).ifPresent(c -> assertThat(
                c.getLabels().get("trimus.adapter_instance")).as("container of %s", run.runId())
                .startsWith("remote-test-worker-")));
    }

    @Test
    void aRunWhoseTagNoWorkerServesFailsAfterTheClaimTimeout() {
        RunRequested run = remote("nobody-" + SUFFIX, "echo never");
        long sentAt = System.nanoTime();
        RunBus.get().request(run);

        RunStatusChanged end = RunBus.get().awaitEnd(run.runId(), Duration.ofSeconds(30));

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("no worker with tag nobody-" + SUFFIX + " claimed the run within 5 s");
        assertThat(Duration.ofNanos(System.nanoTime() - sentAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(5));
        assertThat(RunBus.get().states(run.runId())).containsExactly(DISPATCHED, FAILED);
    }

    @Test
    void aRunWhoseWorkerIsKilledMidRunFailsAsWorkerLost() {
        RunRequested run = remote(DOOMED, "echo started; sleep 300");
        RunBus.get().request(run);
        RunBus.get().await(run.runId(), RUNNING, WITHIN);
        Engine.awaitRunning(run.runId());

        workerC.kill();
        long killedAt = System.nanoTime();
        RunStatusChanged end = RunBus.get().awaitEnd(run.runId(), Duration.ofSeconds(30));

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).startsWith("worker lost: worker " + instance("c") + " (tag " + DOOMED + ")");
        // three missed one-second beats and a one-second watch: well inside ten seconds
        assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aRemoteRunThatBreaksTheContractIsRejectedBeforeAnyTaskIsPublished() {
        RunRequested nested = Runs.remote(COMPANY, SOLO, "remote", Map.of("worker_tag", SOLO, "adapter_type", "docker",
                "adapter_config", Map.of("image", image)));
        RunRequested noImage = Runs.remote(COMPANY, SOLO, "docker", Map.of("command", sh("echo")));
        RunBus.get().request(nested);
        RunBus.get().request(noImage);

        assertThat(RunBus.get().awaitEnd(nested.runId(), WITHIN).error())
                .isEqualTo("adapter_config.adapter_type cannot be remote: a worker runs the run itself");
        assertThat(RunBus.get().awaitEnd(noImage.runId(), WITHIN).error())
                .startsWith("adapter_config.adapter_config.image ");
        assertThat(RunBus.get().states(nested.runId())).containsExactly(RunState.REJECTED);
        assertThat(RunBus.get().states(noImage.runId())).containsExactly(RunState.REJECTED);
        assertThat(claims(workerA, nested.runId()) + claims(workerA, noImage.runId())).isZero();
    }

    @Test
    void theWorkersOwnGatesDecideWhatItRuns() {
        // the worker runs with TRIMUS_LOCAL_ADAPTERS at its default, off: a host-process CLI is refused there
        RunRequested run = Runs.remote(COMPANY, SOLO, "claude_local", Map.of());
        RunBus.get().request(run);

        RunStatusChanged end = RunBus.get().awaitEnd(run.runId(), WITHIN);

        assertThat(end.status()).isEqualTo(RunState.REJECTED);
        assertThat(end.error()).contains("TRIMUS_LOCAL_ADAPTERS=off");
        // and the dispatcher knew it was claimed: no claim-timeout FAILED follows once the 5 s have passed
        org.awaitility.Awaitility.await().during(Duration.ofSeconds(7)).atMost(Duration.ofSeconds(15))
                .until(() -> RunBus.get().states(run.runId()).equals(List.of(DISPATCHED, RunState.REJECTED)));
        assertThat(claims(workerA, run.runId())).isEqualTo(1);
    }

    @Test
    void aForgedTaskIsRefusedByTheWorkerAndNothingStartsOrIsReported() {
        RunRequested issued = remote(SOLO, "echo forged; sleep 1");
        RunRequested inner = RemoteAdapterConfig.parse(issued.adapterConfig()).inner(issued);
        TaskMacs macs = Keys.macs();
        byte[] otherKey = new byte[32];
        new SecureRandom().nextBytes(otherKey);
        TaskMacs strangersMacs = new TaskMacs(DispatchKey.parse(HexFormat.of().formatHex(otherKey)));

        // a real task copied to another company: the dispatcher's stamp holds, run-service's issuer MAC does not
        RunRequested otherCompany = new RunRequested(inner.id(), UUID.randomUUID(), UUID.randomUUID(),
                inner.agentId(), inner.adapterType(), inner.adapterConfig(), null, null, inner.requestedAt(),
                Map.of(), inner.issuerMac());
        // the issuer MAC of a harmless run over a command of the forger's own
        RunRequested otherCommand = new RunRequested(inner.id(), UUID.randomUUID(), inner.companyId(),
                inner.agentId(), inner.adapterType(), JSON.valueToTree(Map.of("image", image, "command",
                sh("echo pwned"))), null, null, inner.requestedAt(), Map.of(), inner.issuerMac());
        List<RemoteTask> forged = List.of(
                stamped(macs, otherCompany),
                stamped(macs, otherCommand),
                task(inner.withIssuerMac(null), null),                                        // no MAC at all
                stamped(strangersMacs, withRunId(inner, UUID.randomUUID(), strangersMacs)));  // another key
        RunRequested sentinel = remote(SOLO, "echo sentinel");
        forged.forEach(task -> publish(task, sentinel.runId()));

        afterTheTasksBefore(sentinel);
        for (RemoteTask task : forged) {
            assertThat(RunBus.get().states(task.runId())).as("statuses of forged %s", task.runId()).isEmpty();
            assertThat(claims(workerA, task.runId())).as("claims of forged %s", task.runId()).isZero();
            assertThat(Engine.containerOf(task.runId())).isEmpty();
            assertThat(log(workerA)).contains("ANOMALY forged remote task " + task.id());
        }
        // every tag's group reads the whole topic: a worker of another tag skips them quietly
        assertThat(log(workerB)).doesNotContain("ANOMALY");
    }

    @Test
    void aForgedTaskCannotFailOrPreEmptTheRealRunOfItsId() {
        RunRequested real = remote(SOLO, "echo the real one; sleep 1");
        RunRequested inner = RemoteAdapterConfig.parse(real.adapterConfig()).inner(real);
        // the forger is first on the topic with the real run's id and a run that would be REJECTED on the worker
        RemoteTask forged = task(new RunRequested(inner.id(), inner.runId(), inner.companyId(), inner.agentId(),
                "claude_local", JSON.valueToTree(Map.of()), null, null, inner.requestedAt(), Map.of(), null), null);
        publish(forged, forged.runId());   // the partition of the real task, which comes second

        RunBus.get().request(real);
        RunStatusChanged end = RunBus.get().awaitEnd(real.runId(), WITHIN);

        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).contains("the real one");
        assertThat(RunBus.get().states(real.runId())).containsExactly(DISPATCHED, RUNNING, SUCCEEDED);
        assertThat(claims(workerA, real.runId())).isEqualTo(1);
        assertThat(log(workerA)).contains("ANOMALY forged remote task " + forged.id());
    }

    @Test
    void aTaskReplayedWithAStretchedDeadlineIsRefused() {
        RunRequested run = remote(SOLO, "echo once");
        RunBus.get().request(run);
        assertThat(RunBus.get().awaitEnd(run.runId(), WITHIN).status()).isEqualTo(SUCCEEDED);
        RunRequested inner = RemoteAdapterConfig.parse(run.adapterConfig()).inner(run);

        // the dispatcher's MAC of a task past its deadline, and the same task given an hour more by a replayer
        RemoteTask late = stamped(Keys.macs(), inner, Instant.now().minusSeconds(1));
        RemoteTask stretched = new RemoteTask(late.id(), late.runId(), late.workerTag(),
                Instant.now().plusSeconds(3600), late.dispatchedAt(), late.request(), late.mac());
        RunRequested sentinel = remote(SOLO, "echo sentinel");
        publish(late, sentinel.runId());
        publish(stretched, sentinel.runId());

        afterTheTasksBefore(sentinel);
        assertThat(claims(workerA, run.runId())).isEqualTo(1);
        assertThat(RunBus.get().states(run.runId())).containsExactly(DISPATCHED, RUNNING, SUCCEEDED);
        assertThat(log(workerA)).contains("ANOMALY forged remote task " + stretched.id());
    }

    /**
     * Runs the sentinel, a real task on the solo tag, and waits for its end: the worker reads a partition's tasks in
     * order, so every task published before it under its key (its run id) has been judged by then.
     */
    private static void afterTheTasksBefore(RunRequested sentinel) {
        RunBus.get().request(sentinel);
        assertThat(RunBus.get().awaitEnd(sentinel.runId(), WITHIN).status()).isEqualTo(SUCCEEDED);
    }

    private static RemoteTask task(RunRequested inner, Instant claimBy) {
        Instant now = Instant.now();
        return new RemoteTask(UUID.randomUUID(), inner.runId(), SOLO, claimBy == null ? now.plusSeconds(60) : claimBy,
                now, inner, null);
    }

    /** A task as a dispatcher holding these MACs' key would publish it. */
    private static RemoteTask stamped(TaskMacs macs, RunRequested inner) {
        return stamped(macs, inner, null);
    }

    private static RemoteTask stamped(TaskMacs macs, RunRequested inner, Instant claimBy) {
        RemoteTask task = task(inner, claimBy);
        return task.withMac(macs.stamp(task));
    }

    /** The request under a new run id, issued by whoever holds these MACs' key. */
    private static RunRequested withRunId(RunRequested inner, UUID runId, TaskMacs macs) {
        RunRequested moved = new RunRequested(inner.id(), runId, inner.companyId(), inner.agentId(),
                inner.adapterType(), inner.adapterConfig(), inner.issue(), inner.input(), inner.requestedAt(),
                inner.secrets(), null);
        return moved.withIssuerMac(macs.issue(moved, SOLO));
    }

    /**
     * Publishes straight onto trimus.remote.tasks as anyone who can write to the topic could, under {@code key}: the
     * partition of the run whose task must come after it.
     */
    private static void publish(RemoteTask task, UUID key) {
        try {
            RunBus.get().produceRaw(Topics.REMOTE_TASKS, key.toString(), JSON.writeValueAsString(task));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String log(ServiceProcess worker) {
        try {
            return Files.readString(worker.logFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RunRequested remote(String tag, String script) {
        return Runs.remote(COMPANY, tag, "docker", Map.of("image", image, "command", sh(script)));
    }

    /** How many times the worker's log says it claimed the run. */
    private static int claims(ServiceProcess worker, UUID runId) {
        try {
            Matcher m = Pattern.compile("claimed run " + runId).matcher(Files.readString(worker.logFile()));
            int count = 0;
            while (m.find()) {
                count++;
            }
            return count;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String instance(String name) {
        return "remote-test-worker-" + name + "-" + SUFFIX;
    }

    private static ServiceProcess worker(String name, String tags) {
        String instance = instance(name);
        synchronized (INSTANCES) {
            INSTANCES.add(instance);
        }
        Map<String, String> props = new HashMap<>();
        props.put("kafka.bootstrap.servers", ConfigProvider.getConfig().getValue("kafka.bootstrap.servers",
                String.class));
        props.put("trimus.worker.tags", tags);
        props.put("trimus.worker.id", instance);
        props.put("trimus.worker.heartbeat-interval", "1s");
        props.put("trimus.docker.instance", instance);
        // a worker holds the dispatch key only (the TRIMUS_ENCRYPTION_KEY it inherits from surefire is ignored)
        props.put("trimus.dispatch-key", Keys.dispatchKey().toHex());
        return ServiceProcess.start(Path.of(""), props);
    }
}
