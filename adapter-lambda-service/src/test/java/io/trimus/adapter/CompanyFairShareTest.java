package io.trimus.adapter;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.DISPATCHED;
import static io.trimus.events.RunState.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fair shares on the real engine: one company's long runs hold at most TRIMUS_COMPANY_MAX_CONCURRENT_RUNS of the
 * docker slots (default half of them), so another company's run starts at once while the first company's extra runs
 * wait, DISPATCHED, until one of its own ends.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class CompanyFairShareTest {

    private static final UUID HOG = UUID.randomUUID();
    private static final UUID OTHER = UUID.randomUUID();
    private static String image;

    private final RunBus bus = RunBus.get();
    private final List<RunRequested> sent = new ArrayList<>();

    @BeforeAll
    static void image() {
        image = Engine.busybox();
    }

    @AfterEach
    void stopEverything() {
        sent.forEach(bus::cancel);
        sent.forEach(run -> bus.awaitEnd(run.runId(), Duration.ofSeconds(60)));
        Engine.removeCompanyContainers(HOG);
        Engine.removeCompanyContainers(OTHER);
    }

    @Test
    void oneCompanysLongRunsCannotHoldEverySlot() {
        int slots = ConfigProvider.getConfig().getValue("trimus.docker.max-concurrent-runs", Integer.class);
        int share = Math.max(1, slots / 2);
        assertThat(share).as("the test needs a share smaller than the pool").isLessThan(slots);
        List<RunRequested> hogs = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            hogs.add(request(HOG, "echo started; sleep 300"));
        }
        await().atMost(RunBus.FIRST_EVENT).until(() -> running(hogs).size() >= share);

        RunRequested other = request(OTHER, "echo other company; sleep 300");

        bus.await(other.runId(), RUNNING, Duration.ofSeconds(60));
        assertThat(running(hogs)).hasSize(share);
        List<RunRequested> waiting = hogs.stream().filter(run -> !running(hogs).contains(run)).toList();
        waiting.forEach(run -> assertThat(bus.states(run.runId())).containsExactly(DISPATCHED));
        waiting.forEach(run -> assertThat(Engine.containerOf(run.runId())).isEmpty());

        RunRequested ended = running(hogs).get(0);
        bus.cancel(ended);
        assertThat(bus.awaitEnd(ended.runId(), Duration.ofSeconds(30)).status()).isEqualTo(CANCELLED);

        await().atMost(Duration.ofSeconds(60)).until(() -> waiting.stream().anyMatch(this::isRunning));
        RunRequested promoted = waiting.stream().filter(this::isRunning).findFirst().orElseThrow();
        Engine.awaitOutput(promoted.runId(), "started");
        RunRequested stillWaiting = waiting.stream().filter(run -> run != promoted).findFirst().orElseThrow();
        assertThat(bus.states(stillWaiting.runId())).containsExactly(DISPATCHED);

        bus.cancel(stillWaiting);
        RunStatusChanged end = bus.awaitEnd(stillWaiting.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.error()).isEqualTo("cancelled before it started");
        assertThat(Engine.containerOf(stillWaiting.runId())).isEmpty();
    }

    private RunRequested request(UUID company, String script) {
        RunRequested run = Runs.docker(company, Map.of("image", image, "command", sh(script)));
        sent.add(run);
        bus.request(run);
        return run;
    }

    private List<RunRequested> running(List<RunRequested> runs) {
        return runs.stream().filter(this::isRunning).toList();
    }

    private boolean isRunning(RunRequested run) {
        List<?> states = bus.states(run.runId());
        return states.contains(RUNNING) && states.size() == 2;
    }
}
