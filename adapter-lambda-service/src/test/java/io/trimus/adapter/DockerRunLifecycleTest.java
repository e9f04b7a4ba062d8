package io.trimus.adapter;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.EventTypes;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A run's life through the real broker and the real Docker engine: request in, container, status out. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class DockerRunLifecycleTest {

    private static final UUID COMPANY = UUID.randomUUID();
    private static final ObjectMapper LEASE = new ObjectMapper();
    private static String image;

    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void image() {
        image = Engine.busybox();
    }

    @AfterEach
    void removeLeftovers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    @Test
    void echoSucceedsWithItsOutputAsBinaryCloudEventsKeyedByRun() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image,
                "command", sh("echo hello from $TRIMUS_RUN_ID; echo to stderr >&2")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, RUNNING, SUCCEEDED);
        assertThat(end.exitCode()).isZero();
        // stdout and stderr are both kept; the engine does not order lines across the two streams
        assertThat(end.output().lines()).containsExactlyInAnyOrder("hello from " + run.runId(), "to stderr");
        assertThat(end.error()).isNull();
        assertThat(end.companyId()).isEqualTo(COMPANY);
        assertThat(end.agentId()).isEqualTo(run.agentId());

        ConsumerRecord<String, String> record = bus.records(run.runId()).get(2);
        assertThat(record.key()).isEqualTo(run.runId().toString());
        assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(record, "ce_type")).isEqualTo(EventTypes.RUN_STATUS);
        assertThat(header(record, "ce_source")).isEqualTo("trimus/adapter-lambda-service");
        assertThat(header(record, "ce_id")).isEqualTo(end.id().toString());
        assertThat(record.value()).contains("\"run_id\":\"" + run.runId() + "\"", "\"status\":\"SUCCEEDED\"");

        await().atMost(Duration.ofSeconds(10)).until(() -> Engine.containerOf(run.runId()).isEmpty());
    }

    @Test
    void theRunsStartIsOnTheLeaseTopicBeforeItsContainerIsCreatedAndItsEventsNameTheLeaseHolder() throws Exception {
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("echo leased")));

        bus.request(run);
        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(SUCCEEDED);

        ConsumerRecord<String, String> started;
        try (KafkaCompanion kafka = new KafkaCompanion(ConfigProvider.getConfig()
                .getValue("kafka.bootstrap.servers", String.class));
             ConsumerTask<String, String> leases = kafka.consumeStrings().fromTopics(Topics.ADAPTER_LEASES)) {
            started = await().atMost(Duration.ofSeconds(30)).until(() -> leases.getRecords().stream()
                    .filter(r -> startedRuns(r).contains(run.runId().toString()))
                    .findFirst(), java.util.Optional::isPresent).orElseThrow();
        }
        String holder = LEASE.readTree(started.value()).path("instance").asText();
        assertThat(bus.events(run.runId())).extracting(RunStatusChanged::reportedBy).containsOnly(holder);

        List<Event> created = new ArrayList<>();
        Engine.docker().eventsCmd().withSince(String.valueOf(since))
                .withUntil(String.valueOf(Instant.now().getEpochSecond() + 1))
                .withLabelFilter(Map.of(Engine.LABEL_RUN, run.runId().toString()))
                .withEventFilter("create")
                .exec(new ResultCallback.Adapter<Event>() {
                    @Override
                    public void onNext(Event event) {
                        created.add(event);
                    }
                }).awaitCompletion(30, TimeUnit.SECONDS);
        assertThat(created).hasSize(1);
        long createdAtMs = created.get(0).getTimeNano() / 1_000_000;
        assertThat(started.timestamp()).as("the start beat's broker time vs the container's creation")
                .isLessThanOrEqualTo(createdAtMs);
    }

    private static String startedRuns(ConsumerRecord<String, String> beat) {
        try {
            return LEASE.readTree(beat.value()).path("started").toString();
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    void aNetworkNameThatResolvesToTheHostNetworkIsRefusedBeforeAnyContainerExists() {
        // Docker resolves a network by id prefix too: the host network's id prefix is a valid-looking name
        String hostNetworkId = Engine.docker().listNetworksCmd().withNameFilter("host").exec().stream()
                .filter(n -> "host".equals(n.getName())).findFirst().orElseThrow().getId();
        String prefix = hostNetworkId.substring(0, 12);
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "network", prefix,
                "command", sh("echo should never run")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).startsWith("adapter_config.network network " + prefix + " is not available to agents");
        assertThat(Engine.containerOf(run.runId())).isEmpty();
    }

    @Test
    void anUnknownNetworkIsRejectedWithoutSayingWhetherItExists() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "network", "trimus-no-such-network",
                "command", sh("echo should never run")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).startsWith("adapter_config.network network trimus-no-such-network is not available"
                + " to agents on this Trimus (allowed: none, ");
    }

    @Test
    void nonZeroExitFailsWithTheExitCode() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("echo partial; exit 3")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.exitCode()).isEqualTo(3);
        assertThat(end.output()).isEqualTo("partial\n");
        assertThat(end.error()).isEqualTo("exited with code 3");
    }

    @Test
    void sleepPastTheTimeoutIsKilledAndKeepsTheOutputPrintedBefore() {
        // below run-service's floor of 10 s: this app's TRIMUS_DOCKER_MIN_TIMEOUT_SEC is lowered (application.properties)
        int timeoutSec = 3;
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "timeout_sec", timeoutSec,
                "command", sh("echo working on it; sleep 120; echo never printed")));
        long start = System.nanoTime();

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(90));
        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.output()).isEqualTo("working on it\n");
        assertThat(end.error()).isEqualTo("timed out after " + timeoutSec + " s; the container was killed");
        RunStatusChanged running = bus.events(run.runId()).get(1);
        assertThat(Duration.between(running.occurredAt(), end.occurredAt()))
                .isBetween(Duration.ofSeconds(timeoutSec), Duration.ofSeconds(timeoutSec + 30));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(90));
        await().atMost(Duration.ofSeconds(10)).until(() -> Engine.containerOf(run.runId()).isEmpty());
    }

    @Test
    void cancellingARunningContainerEndsCancelledAndRemovesIt() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("echo started; sleep 300")));
        bus.request(run);
        bus.await(run.runId(), RUNNING);
        Engine.awaitOutput(run.runId(), "started");

        bus.cancel(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.output()).isEqualTo("started\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> Engine.containerOf(run.runId()).isEmpty());
    }

    @Test
    void cancellingAQueuedRunMeansItNeverStarts() {
        long since = System.currentTimeMillis() / 1000 - 1;
        int slots = ConfigProvider.getConfig().getValue("trimus.docker.max-concurrent-runs", Integer.class);
        List<RunRequested> busy = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            // one company per sleeper: a single company holds only its fair share of the slots
            RunRequested sleeper = Runs.docker(UUID.randomUUID(), Map.of("image", image, "command", sh("sleep 300")));
            busy.add(sleeper);
            bus.request(sleeper);
        }
        busy.forEach(sleeper -> bus.await(sleeper.runId(), RUNNING));
        RunRequested queued = Runs.docker(COMPANY, Map.of("image", image, "command", sh("echo should not run")));
        bus.request(queued);
        bus.await(queued.runId(), DISPATCHED);

        bus.cancel(queued);

        RunStatusChanged end = bus.awaitEnd(queued.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.error()).isEqualTo("cancelled before it started");
        busy.forEach(bus::cancel);
        busy.forEach(sleeper -> assertThat(bus.awaitEnd(sleeper.runId(), Duration.ofSeconds(30)).status())
                .isEqualTo(CANCELLED));
        assertThat(bus.states(queued.runId())).containsExactly(DISPATCHED, CANCELLED);
        assertThat(Engine.containersCreated(queued.runId(), since)).isZero();
    }

    @Test
    void missingImageFailsWithAClearReason() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", "trimus-test/no-such-image:1"));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("image trimus-test/no-such-image:1 not found on the Docker engine");
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, FAILED);
    }

    @Test
    void invalidAdapterConfigIsRejectedNamingTheField() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "pids_limit", 0));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).isEqualTo("adapter_config.pids_limit must be a whole number greater than 0");
        assertThat(bus.states(run.runId())).containsExactly(REJECTED);
    }

    @Test
    void adapterTypesThisVersionDoesNotKnowAreRejected() {
        RunRequested run = Runs.of(COMPANY, "kubernetes",
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode(), null, null);

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).isEqualTo("adapter type kubernetes is not available in this version");
    }

    @Test
    void aRequestDeliveredTwiceOrResentStartsOneContainer() {
        long since = System.currentTimeMillis() / 1000 - 1;
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("sleep 2; echo once")));

        bus.request(run);
        bus.request(run);
        bus.request(Runs.resent(run));
        // requests are consumed in order: once this one is dispatched, the duplicates have been handled
        RunRequested marker = Runs.docker(COMPANY, Map.of("image", image, "command", sh("true")));
        bus.request(marker);
        bus.awaitEnd(marker.runId());

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("once\n");
        assertThat(bus.states(run.runId())).containsExactly(DISPATCHED, RUNNING, SUCCEEDED);
        assertThat(Engine.containersCreated(run.runId(), since)).isEqualTo(1);
    }

    @Test
    void anUnreadableRecordDoesNotStopTheConsumer() {
        bus.produceRaw(Topics.RUN_REQUESTED, "garbage", "this is not JSON {");
        bus.produceRaw(Topics.RUN_CANCEL, "garbage", "[1, 2, 3]");
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("echo still consuming")));

        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId());
        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("still consuming\n");
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
