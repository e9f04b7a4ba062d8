package io.trimus.adapter;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.Keys;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.Containers;
import io.trimus.testing.InfraControl;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three workers share one tag: real worker processes (this service's jar in worker mode, two places each) on the real
 * broker and Docker engine, fed by a dispatcher process of their own (the same jar, with the default 60 s claim
 * timeout, so tasks can wait for a free place; it reads a run-request topic of this test's own). A burst of twelve
 * runs spreads over all three; one worker is killed with SIGKILL mid-run: its running runs fail as "worker lost",
 * the tasks it had not claimed are run by the other two, and the engine's event log shows no run started twice.
 * Before that, the broker restarts under a burst of nine.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WorkersShareATagTest {

    private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
    private static final String TAG = "crowd-" + SUFFIX;
    private static final String REQUESTS = "trimus.run.requested.crowd-" + SUFFIX;
    private static final UUID COMPANY = UUID.randomUUID();
    private static final int RUNS = 12;
    private static final int PLACES = 2;
    private static final List<String> NAMES = List.of("a", "b", "c");
    private static final String VICTIM = "b";
    /**
     * The workers' task-consumer session timeout: how long a killed worker (and, after a broker restart, a member the
     * group still waits for) holds its partitions. The broker's minimum; production's default is 10 s.
     */
    private static final Duration SESSION = Duration.ofSeconds(6);
    /**
     * The dispatcher's rejoin grace, and the session timeout of its heartbeat consumer, which the grace must cover
     * (both 10 s in production). Its heartbeat consumer keeps its partitions through the restart and reads beats
     * again as soon as the broker answers, well inside the miss window and this grace.
     */
    private static final Duration REJOIN_GRACE = Duration.ofSeconds(6);
    /** Until a spurious verdict can no longer come: a miss window of 3 beats of 1 s, the grace, two watch ticks. */
    private static final Duration AFTER_THE_GRACE = Duration.ofSeconds(3).plus(REJOIN_GRACE).plusSeconds(2);

    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

    private static final Map<String, ServiceProcess> WORKERS = new LinkedHashMap<>();
    private static ServiceProcess dispatcher;
    private static String image;

    @BeforeAll
    static void start() {
        image = Engine.busybox();
        CompletableFuture<ServiceProcess> feeding = CompletableFuture.supplyAsync(WorkersShareATagTest::dispatcher);
        Map<String, CompletableFuture<ServiceProcess>> starting = new LinkedHashMap<>();
        NAMES.forEach(name -> starting.put(name, CompletableFuture.supplyAsync(() -> worker(name))));
        starting.forEach((name, future) -> WORKERS.put(name, future.join()));
        dispatcher = feeding.join();
    }

    @AfterAll
    static void stop() {
        List<ServiceProcess> all = new ArrayList<>(WORKERS.values());
        if (dispatcher != null) {
            all.add(dispatcher);
        }
        all.stream().map(process -> CompletableFuture.runAsync(process::close)).toList()
                .forEach(CompletableFuture::join);
        // the killed worker leaves its containers behind (its next boot would reap them): remove them here
        NAMES.forEach(name -> Containers.removeByLabel(Engine.docker(), "trimus.adapter_instance", instance(name)));
    }

    @Test
    @Order(2)
    void aTagsRunsSpreadOverItsWorkersAndAKilledWorkersUnclaimedTasksGoToTheOthers() {
        long since = Instant.now().getEpochSecond() - 1;
        List<RunRequested> runs = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            RunRequested run = Runs.remote(COMPANY, TAG, "docker", Map.of("image", image,
                    "command", sh("echo crowd run " + i + "; sleep 6")));
            runs.add(run);
            RunBus.get().requestOn(REQUESTS, run);
        }

        // every worker claims a share (on one partition per tag, one worker would claim them all)
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(claimCounts(runs)).as("runs claimed per worker").allSatisfy((name, claimed) ->
                        assertThat(claimed).as("runs claimed by worker %s", name).isPositive()));

        // kill one worker while a run of its own is executing
        ServiceProcess victim = WORKERS.get(VICTIM);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> claimedBy(VICTIM).stream().anyMatch(WorkersShareATagTest::executing));
        victim.kill();
        long killedAt = System.nanoTime();
        Set<UUID> executingAtKill = claimedBy(VICTIM).stream().filter(WorkersShareATagTest::executing)
                .collect(Collectors.toSet());
        Set<UUID> claimedAtKill = new HashSet<>();
        NAMES.forEach(name -> claimedAtKill.addAll(claimedBy(name)));
        Set<UUID> waitingAtKill = runs.stream().map(RunRequested::runId).filter(id -> !claimedAtKill.contains(id))
                .collect(Collectors.toSet());

        // its running runs fail fast as worker lost
        for (UUID run : executingAtKill) {
            RunStatusChanged end = RunBus.get().awaitEnd(run, Duration.ofSeconds(30));
            assertThat(end.status()).as("run %s of the killed worker", run).isEqualTo(FAILED);
            assertThat(end.error()).startsWith("worker lost: worker " + instance(VICTIM) + " (tag " + TAG + ")");
        }
        Duration toFailure = Duration.ofNanos(System.nanoTime() - killedAt);
        assertThat(toFailure).isLessThan(Duration.ofSeconds(15));

        // everything else ends, exactly once, on the survivors
        Map<UUID, RunStatusChanged> ends = new HashMap<>();
        runs.forEach(run -> ends.put(run.runId(), RunBus.get().awaitEnd(run.runId(), Duration.ofSeconds(90))));
        Map<String, Set<UUID>> claims = new LinkedHashMap<>();
        NAMES.forEach(name -> claims.put(name, claimedBy(name)));
        Set<UUID> victimsRuns = claims.get(VICTIM);   // its log as the killed process left it
        Map<UUID, Integer> startsPerRun = containerStarts(runs, since);
        for (RunRequested run : runs) {
            UUID id = run.runId();
            List<RunState> states = RunBus.get().states(id);
            assertThat(states.stream().filter(RunState::isTerminal)).as("final states of %s", id).hasSize(1);
            long claimants = claims.values().stream().filter(c -> c.contains(id)).count();
            assertThat(claimants).as("workers that claimed %s", id).isEqualTo(1);
            int starts = startsPerRun.get(id);
            assertThat(starts).as("containers started for %s", id).isLessThanOrEqualTo(1);
            if (!victimsRuns.contains(id)) {
                assertThat(ends.get(id).status()).as("run %s, claimed by a survivor", id).isEqualTo(SUCCEEDED);
                assertThat(ends.get(id).output()).contains("crowd run ");
                assertThat(starts).as("containers started for %s", id).isEqualTo(1);
            } else {
                assertThat(ends.get(id).status()).as("run %s of the killed worker", id).isIn(SUCCEEDED, FAILED);
            }
        }
        // the killed worker held at most its two places; the tasks no worker had claimed yet all ran on the others
        long lost = ends.values().stream().filter(e -> e.status() == FAILED).count();
        assertThat(lost).isLessThanOrEqualTo(PLACES);
        assertThat(waitingAtKill).as("tasks waiting on the topic when the worker was killed").isNotEmpty()
                .allSatisfy(id -> assertThat(ends.get(id).status()).isEqualTo(SUCCEEDED))
                .allSatisfy(id -> assertThat(victimsRuns).doesNotContain(id));

        System.out.printf("WorkersShareATagTest: %d runs, claims per worker %s, %d waiting on the topic at the kill,"
                        + " %d of the killed worker's runs executing (FAILED worker lost within %d ms), %d FAILED,"
                        + " %d SUCCEEDED, hand-backs per worker (both tests) %s%n", RUNS, claimCounts(runs),
                waitingAtKill.size(), executingAtKill.size(), toFailure.toMillis(), lost, RUNS - lost,
                NAMES.stream().collect(Collectors.toMap(n -> n, WorkersShareATagTest::handBacks)));
    }

    /**
     * The broker stops and comes back (same port, same data) while a burst runs: every run still executes exactly
     * once and ends SUCCEEDED, once. The dispatcher hears no heartbeat while the broker is down; it must not take that
     * silence for lost workers.
     */
    @Test
    @Order(1)
    void aBrokerRestartDuringTheBurstLosesNoRunAndRunsNoneTwice() {
        long since = Instant.now().getEpochSecond() - 1;
        List<RunRequested> runs = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            RunRequested run = Runs.remote(COMPANY, TAG, "docker", Map.of("image", image,
                    "command", sh("echo restart run " + i + "; sleep 6")));
            runs.add(run);
            RunBus.get().requestOn(REQUESTS, run);
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> runs.stream().filter(r -> executing(r.runId())).count() >= 3);

        InfraControl infra = InfraControl.fromConfig();
        long dispatcherLogBefore = dispatcherLog().length();
        long stoppedAt = System.nanoTime();
        infra.stopKafka();
        infra.startKafka();
        Duration outage = Duration.ofNanos(System.nanoTime() - stoppedAt);

        runs.forEach(run -> RunBus.get().awaitEnd(run.runId(), Duration.ofSeconds(120)));
        // a spurious verdict would come within the dispatcher's grace after the broker is back (3 s + 6 s here)
        Duration quiet = untilTheGraceIsOver(dispatcherLogBefore);
        await().during(quiet).atMost(quiet.plusSeconds(15)).pollInterval(Duration.ofMillis(500))
                .until(() -> runs.stream().allMatch(run -> RunBus.get().states(run.runId()).stream()
                        .filter(RunState::isTerminal).count() == 1));
        Map<UUID, Integer> startsPerRun = containerStarts(runs, since);
        for (RunRequested run : runs) {
            UUID id = run.runId();
            assertThat(startsPerRun.get(id)).as("containers started for %s", id).isEqualTo(1);
            assertThat(RunBus.get().states(id).stream().filter(RunState::isTerminal)).as("final states of %s", id)
                    .containsExactly(SUCCEEDED);
        }
        System.out.printf("WorkersShareATagTest restart: 9 runs, outage %d ms, each executed once and SUCCEEDED once"
                + " (watched %d ms more); claims per worker %s%n", outage.toMillis(), quiet.toMillis(),
                claimCounts(runs));
    }

    /**
     * How long from now a spurious "worker lost" verdict could still come: until two watch ticks after the grace the
     * dispatcher gives its workers from when it says the broker answers again (the last time its log after
     * {@code from} says so), a worker's miss window (3 beats of 1 s) and {@link #REJOIN_GRACE} more. With no such line
     * (it never saw the broker gone, or does not see it back yet) the whole grace from now: {@link #AFTER_THE_GRACE}.
     */
    private static Duration untilTheGraceIsOver(long from) {
        Duration wholeGrace = AFTER_THE_GRACE;
        String log = dispatcherLog().substring((int) from);
        Matcher back = Pattern.compile("(?m)^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}) .*"
                + "the Kafka broker answers again").matcher(log);
        Instant answers = null;
        int at = -1;
        while (back.find()) {
            answers = LocalDateTime.parse(back.group(1), LOG_TIME).atZone(ZoneId.systemDefault()).toInstant();
            at = back.end();
        }
        if (answers == null || log.indexOf("the Kafka broker does not answer", at) >= 0) {
            return wholeGrace;
        }
        Duration left = Duration.between(Instant.now(), answers.plus(wholeGrace));
        return left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : left;
    }

    /**
     * How many containers the engine started for each of {@code runs} since {@code sinceEpochSecond}: one query for
     * all (events up to now, which returns at once; a query per run waiting for the next whole second took ~1 s each).
     * The runs have all ended, so their start events are in the engine's log.
     */
    private static Map<UUID, Integer> containerStarts(List<RunRequested> runs, long sinceEpochSecond) {
        Map<UUID, Integer> starts = new HashMap<>();
        runs.forEach(run -> starts.put(run.runId(), 0));
        Instant now = Instant.now();
        try (var callback = Engine.docker().eventsCmd()
                .withSince(String.valueOf(sinceEpochSecond))
                .withUntil(now.getEpochSecond() + "." + String.format("%09d", now.getNano()))
                .withLabelFilter(Engine.LABEL_RUN)
                .withEventFilter("start")
                .exec(new ResultCallback.Adapter<Event>() {
                    @Override
                    public void onNext(Event event) {
                        String run = event.getActor() == null || event.getActor().getAttributes() == null ? null
                                : event.getActor().getAttributes().get(Engine.LABEL_RUN);
                        if (run != null) {
                            synchronized (starts) {
                                starts.computeIfPresent(UUID.fromString(run), (id, n) -> n + 1);
                            }
                        }
                    }
                })) {
            assertThat(callback.awaitCompletion(15, TimeUnit.SECONDS)).as("the engine's event log read to now")
                    .isTrue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        synchronized (starts) {
            return new HashMap<>(starts);
        }
    }

    private static String dispatcherLog() {
        try {
            return Files.readString(dispatcher.logFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** RUNNING and not yet ended. */
    private static boolean executing(UUID run) {
        List<RunState> states = RunBus.get().states(run);
        return states.contains(RUNNING) && states.stream().noneMatch(RunState::isTerminal);
    }

    /** How many of {@code runs} each worker claimed. */
    private static Map<String, Long> claimCounts(List<RunRequested> runs) {
        Set<UUID> ids = runs.stream().map(RunRequested::runId).collect(Collectors.toSet());
        Map<String, Long> counts = new LinkedHashMap<>();
        NAMES.forEach(name -> counts.put(name, claimedBy(name).stream().filter(ids::contains).count()));
        return counts;
    }

    /** The runs the worker's log says it claimed. */
    private static Set<UUID> claimedBy(String name) {
        Matcher m = Pattern.compile("claimed run ([0-9a-f-]{36})").matcher(log(name));
        Set<UUID> runs = new HashSet<>();
        while (m.find()) {
            runs.add(UUID.fromString(m.group(1)));
        }
        return runs;
    }

    private static long handBacks(String name) {
        return Pattern.compile("back to the workers with room").matcher(log(name)).results().count();
    }

    private static String log(String name) {
        try {
            return Files.readString(WORKERS.get(name).logFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String instance(String name) {
        return "crowd-worker-" + name + "-" + SUFFIX;
    }

    private static Map<String, String> common(String instance) {
        Map<String, String> props = new HashMap<>();
        props.put("kafka.bootstrap.servers", ConfigProvider.getConfig().getValue("kafka.bootstrap.servers",
                String.class));
        props.put("trimus.docker.instance", instance);
        props.put("trimus.dispatch-key", Keys.dispatchKey().toHex());
        return props;
    }

    private static ServiceProcess worker(String name) {
        Map<String, String> props = common(instance(name));
        props.put("trimus.worker.tags", TAG);
        props.put("trimus.worker.id", instance(name));
        props.put("trimus.worker.heartbeat-interval", "1s");
        props.put("trimus.worker.max-concurrent-runs", String.valueOf(PLACES));
        props.put("trimus.worker.session-timeout", SESSION.toMillis() + "ms");
        return ServiceProcess.start(Path.of(""), props);
    }

    /** A dispatcher reading this test's own request topic, so the app under test (claim timeout 5 s) stays out. */
    private static ServiceProcess dispatcher() {
        Map<String, String> props = common("crowd-dispatcher-" + SUFFIX);
        props.put("mp.messaging.incoming.\"trimus.run.requested\".topic", REQUESTS);
        props.put("mp.messaging.incoming.\"trimus.run.requested\".group.id", "crowd-dispatcher-" + SUFFIX);
        props.put("trimus.remote.claim-timeout", "60s");
        props.put("trimus.remote.rejoin-grace", REJOIN_GRACE.toMillis() + "ms");
        props.put("mp.messaging.incoming.worker-heartbeats-in.session.timeout.ms",
                String.valueOf(REJOIN_GRACE.toMillis()));
        return ServiceProcess.start(Path.of(""), props);
    }
}
