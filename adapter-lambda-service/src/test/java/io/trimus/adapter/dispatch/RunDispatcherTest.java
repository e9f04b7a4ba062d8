package io.trimus.adapter.dispatch;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.OrphanRun;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunCancelRequested;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.DockerAdapterConfig;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's decisions, with a recording stand-in for the docker adapter. */
class RunDispatcherTest {

    private final List<RunStatusChanged> reported = new ArrayList<>();
    private final RecordingAdapter docker = new RecordingAdapter();
    private final RunDispatcher dispatcher = new RunDispatcher(Wiring.registry(docker), reported::add);

    private static RunRequested request(Map<String, ?> config) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "docker", new ObjectMapper().valueToTree(config), null, null, Instant.now());
    }

    private static RunRequested resent(RunRequested r) {
        return Runs.request(UUID.randomUUID(), r.runId(), r.companyId(), r.agentId(), r.adapterType(),
                r.adapterConfig(), r.issue(), r.input(), Instant.now());
    }

    private List<RunState> states() {
        return reported.stream().map(RunStatusChanged::status).toList();
    }

    @Test
    void aValidRequestIsDispatchedThenSubmitted() {
        RunRequested run = request(Map.of("image", "busybox"));
        dispatcher.dispatch(run);
        assertThat(states()).containsExactly(RunState.DISPATCHED);
        assertThat(docker.submitted).containsExactly(run.runId());
    }

    @Test
    void aClaimedRemoteRunIsSubmittedWithoutASecondDispatched() {
        RunRequested run = request(Map.of("image", "busybox"));
        assertThat(dispatcher.runClaimed(run)).isTrue();
        assertThat(dispatcher.runClaimed(resent(run))).isFalse();
        assertThat(states()).isEmpty();
        assertThat(docker.submitted).containsExactly(run.runId());
    }

    @Test
    void aWorkerNeverHandsARemoteRunOnToAnotherWorker() {
        RunRequested run = request(Map.of("image", "busybox"));
        RunRequested nested = Runs.request(run.id(), run.runId(), run.companyId(), run.agentId(), "remote",
                run.adapterConfig(), null, null, run.requestedAt());
        assertThat(dispatcher.runClaimed(nested)).isFalse();
        assertThat(states()).containsExactly(RunState.REJECTED);
        assertThat(docker.submitted).isEmpty();
    }

    @Test
    void theSameEventTwiceOrTheSameRunUnderANewEventIsSubmittedOnce() {
        RunRequested run = request(Map.of("image", "busybox"));
        dispatcher.dispatch(run);
        dispatcher.dispatch(run);
        dispatcher.dispatch(resent(run));
        assertThat(docker.submitted).containsExactly(run.runId());
        assertThat(states()).containsExactly(RunState.DISPATCHED);
    }

    @Test
    void aBrokenAdapterConfigIsRejectedNamingTheField() {
        RunRequested run = request(Map.of("image", "busybox", "memory", "lots"));
        dispatcher.dispatch(run);
        assertThat(states()).containsExactly(RunState.REJECTED);
        assertThat(reported.get(0).error()).startsWith("adapter_config.memory must be a size like 512m");
        assertThat(docker.submitted).isEmpty();
    }

    @Test
    void anAdapterTypeWithoutAnAdapterIsRejected() {
        RunRequested run = Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                UUID.randomUUID(), "claude_sandbox", null, null, null, Instant.now());
        dispatcher.dispatch(run);
        assertThat(states()).containsExactly(RunState.REJECTED);
        assertThat(reported.get(0).error()).isEqualTo("adapter type claude_sandbox is not available in this version");
    }

    @Test
    void aCancelThatArrivesBeforeItsRequestKeepsTheRunFromStarting() {
        RunRequested run = request(Map.of("image", "busybox"));
        dispatcher.cancel(new RunCancelRequested(UUID.randomUUID(), run.runId(), run.companyId(), Instant.now()));
        dispatcher.dispatch(run);
        assertThat(states()).containsExactly(RunState.CANCELLED);
        assertThat(docker.submitted).isEmpty();
    }

    @Test
    void aCancelOfADispatchedRunGoesToItsAdapter() {
        RunRequested run = request(Map.of("image", "busybox"));
        dispatcher.dispatch(run);
        dispatcher.cancel(new RunCancelRequested(UUID.randomUUID(), run.runId(), run.companyId(), Instant.now()));
        assertThat(docker.cancelled).containsExactly(run.runId());
    }

    @Test
    void orphansAreReportedFailedAndNeverStartedAgain() {
        RunRequested run = request(Map.of("image", "busybox"));
        docker.orphans.add(new OrphanRun(run.runId(), run.companyId(), run.agentId()));
        dispatcher.reconcile();
        dispatcher.dispatch(run);
        assertThat(states()).containsExactly(RunState.FAILED);
        assertThat(reported.get(0).error()).isEqualTo("adapter restarted while the run was in progress");
        assertThat(docker.submitted).isEmpty();
    }

    private static final class RecordingAdapter implements Adapter {
        final List<UUID> submitted = new ArrayList<>();
        final List<UUID> cancelled = new ArrayList<>();
        final List<OrphanRun> orphans = new ArrayList<>();

        @Override
        public AdapterType type() {
            return AdapterType.DOCKER;
        }

        @Override
        public void validate(RunRequested request) {
            DockerAdapterConfig.parse(request.adapterConfig());
        }

        @Override
        public void submit(RunRequested request) {
            submitted.add(request.runId());
        }

        @Override
        public boolean cancel(UUID runId) {
            cancelled.add(runId);
            return true;
        }

        @Override
        public List<OrphanRun> reapOrphans() {
            return orphans;
        }
    }
}
