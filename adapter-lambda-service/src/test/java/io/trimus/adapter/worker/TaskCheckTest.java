package io.trimus.adapter.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.adapter.run.secrets.DispatchKeys;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.TestConfig;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;
import io.trimus.events.secrets.DispatchKey;
import io.trimus.events.secrets.TaskMacs;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

import static io.trimus.adapter.worker.TaskCheck.Verdict.EXECUTE;
import static io.trimus.adapter.worker.TaskCheck.Verdict.REFUSE;
import static org.assertj.core.api.Assertions.assertThat;

/** What a worker lets through: run-service's tasks for its tag, in time, once; nothing else. */
class TaskCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");
    private static final String KEY = randomKey();
    private static final TaskMacs MACS = new TaskMacs(DispatchKey.parse(KEY));
    private final TaskCheck check = new TaskCheck(new DispatchKeys(TestConfig.of("trimus.dispatch-key", KEY)),
            Clock.fixed(NOW, ZoneOffset.UTC));

    private static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    private static RunRequested request(UUID company) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), company, UUID.randomUUID(), "docker",
                JSON.valueToTree(Map.of("image", "busybox")), null, "go", NOW, Map.of());
    }

    private static RemoteTask task(TaskMacs issuer, TaskMacs stamper, RunRequested request, String tag,
                                   Instant claimBy) {
        RunRequested issued = request.withIssuerMac(issuer.issue(request, tag));
        RemoteTask task = new RemoteTask(UUID.randomUUID(), request.runId(), tag, claimBy, NOW, issued, null);
        return task.withMac(stamper.stamp(task));
    }

    private static RemoteTask task(RunRequested request) {
        return task(MACS, MACS, request, "gpu", NOW.plusSeconds(60));
    }

    @Test
    void aTaskRunServiceIssuedAndADispatcherStampedRunsOnceOnItsTag() {
        RemoteTask task = task(request(UUID.randomUUID()));

        assertThat(check.judge(task, "gpu")).isEqualTo(EXECUTE);
        assertThat(check.taken(task)).isTrue();
        assertThat(check.judge(task, "gpu")).as("replayed").isEqualTo(REFUSE);
        assertThat(check.taken(task)).isFalse();
    }

    @Test
    void aTaskOnAnotherTagUnderAnotherKeyOrWithoutMacsIsRefused() {
        RunRequested request = request(UUID.randomUUID());
        TaskMacs stranger = new TaskMacs(DispatchKey.parse(randomKey()));

        assertThat(check.judge(task(request), "cpu")).isEqualTo(REFUSE);
        assertThat(check.judge(task(stranger, stranger, request, "gpu", NOW.plusSeconds(60)), "gpu")).isEqualTo(REFUSE);
        assertThat(check.judge(task(stranger, MACS, request, "gpu", NOW.plusSeconds(60)), "gpu")).isEqualTo(REFUSE);
        assertThat(check.judge(task(request).withMac(null), "gpu")).isEqualTo(REFUSE);
        RemoteTask unissued = new RemoteTask(UUID.randomUUID(), request.runId(), "gpu", NOW.plusSeconds(60), NOW,
                request, null);
        assertThat(check.judge(unissued.withMac(MACS.stamp(unissued)), "gpu")).isEqualTo(REFUSE);
    }

    @Test
    void aTaskMovedToAnotherCompanyOrGivenALaterDeadlineIsRefusedAndItsRunStaysFree() {
        RemoteTask real = task(request(UUID.randomUUID()));
        RunRequested r = real.request();
        RunRequested moved = new RunRequested(r.id(), r.runId(), UUID.randomUUID(), r.agentId(), r.adapterType(),
                r.adapterConfig(), r.issue(), r.input(), r.requestedAt(), r.secrets(), r.issuerMac());
        RemoteTask copied = new RemoteTask(real.id(), real.runId(), "gpu", real.claimBy(), real.dispatchedAt(), moved,
                null);
        RemoteTask stretched = new RemoteTask(real.id(), real.runId(), "gpu", real.claimBy().plusSeconds(3600),
                real.dispatchedAt(), r, real.mac());

        assertThat(check.judge(copied.withMac(MACS.stamp(copied)), "gpu")).isEqualTo(REFUSE);
        assertThat(check.judge(stretched, "gpu")).isEqualTo(REFUSE);
        // the forgeries left nothing behind: the real task still runs
        assertThat(check.judge(real, "gpu")).isEqualTo(EXECUTE);
    }

    @Test
    void aTaskPastItsClaimDeadlineIsRefused() {
        assertThat(check.judge(task(MACS, MACS, request(UUID.randomUUID()), "gpu", NOW), "gpu")).isEqualTo(REFUSE);
    }

    @Test
    void withoutAKeyNothingRuns() {
        TaskCheck keyless = new TaskCheck(Wiring.noKeys(), Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat(keyless.judge(task(request(UUID.randomUUID())), "gpu")).isEqualTo(REFUSE);
    }
}
