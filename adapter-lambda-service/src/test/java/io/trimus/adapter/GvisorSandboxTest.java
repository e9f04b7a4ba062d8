package io.trimus.adapter;

import com.github.dockerjava.api.command.InspectContainerResponse;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A docker agent that asks for gVisor ({@code "runtime": "runsc"}, allowed by the tests' TRIMUS_DOCKER_RUNTIMES and
 * registered with the engine by {@code ./trimus test}, scripts/gvisor.sh) runs on gVisor's kernel, and every promise of
 * a runc sandbox holds there too, attacked from inside: read-only root, no capabilities, no new privileges, the seccomp
 * profile's place taken by gVisor's kernel, pids and memory limits, timeout with partial output, cancel,
 * no network. A runtime the engine does not have REJECTS the run before anything is created.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class GvisorSandboxTest {

    private static final UUID COMPANY = UUID.randomUUID();
    private static String image;
    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void image() {
        image = Engine.busybox();
        assertThat(Wiring.engineRuntimes("local").refusal("runsc"))
                .as("./trimus test registers gVisor with the engine (scripts/gvisor.sh)").isEmpty();
    }

    @AfterAll
    static void removeContainers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    private RunStatusChanged runsc(Map<String, Object> config) {
        java.util.Map<String, Object> withRuntime = new java.util.LinkedHashMap<>(config);
        withRuntime.put("image", image);
        withRuntime.put("runtime", "runsc");
        return requestAndAwait(Runs.docker(COMPANY, withRuntime));
    }

    private RunStatusChanged requestAndAwait(RunRequested run) {
        bus.request(run);
        return bus.awaitEnd(run.runId(), Duration.ofSeconds(120));
    }

    @Test
    void theSandboxRunsOnGvisorsKernelAndTheRunSaysSo() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "runtime", "runsc",
                "command", sh("cat /proc/version; echo kernel $(uname -r); exec sleep 60")));
        bus.request(run);
        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        assertThat(container.getHostConfig().getRuntime()).isEqualTo("runsc");
        Engine.awaitOutput(run.runId(), "kernel ");
        assertThat(Engine.logs(run.runId())).as("gVisor's Sentry answers, not the host's kernel")
                .doesNotContain("kernel " + System.getProperty("os.version"));
        bus.cancel(run);
        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(60));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.output()).contains("kernel 4.4.0");
        RunStatusChanged running = bus.events(run.runId()).stream().filter(e -> e.status() == RUNNING).findFirst()
                .orElseThrow();
        assertThat(running.notes()).anyMatch(note -> note.startsWith("runtime: runsc (gVisor"));
        await().atMost(Duration.ofSeconds(10)).until(() -> Engine.containerOf(run.runId()).isEmpty());
    }

    /**
     * Read-only root, no capabilities, no chown, no mount, even as uid 0. Docker's seccomp profile is not applied
     * inside gVisor (registered without --oci-seccomp: with it, Debian 12's runsc fails every new thread, so node and
     * curl's resolver do not run): gVisor's kernel answers every system call itself, so {@code Seccomp: 0} here, and
     * {@code unshare -U} makes a user namespace of gVisor's kernel, not the host's.
     */
    @Test
    void theHardeningHoldsUnderGvisor() {
        RunStatusChanged end = runsc(Map.of("user", "0", "command", sh("exec 2>&1; "
                + "touch /pwned; echo root-write $?; "
                + "touch /tmp/ok && echo tmp-write 0; "
                + "touch /tmp/f; chown 1000:1000 /tmp/f; echo chown $?; "
                + "grep -E 'CapEff|Seccomp:' /proc/self/status; "
                + "mount -t tmpfs x /mnt; echo mount $?; "
                + "ls /sys/class/net | tr '\\n' ' '; echo")));

        assertThat(end.status()).as(end.output()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).contains("root-write 1", "tmp-write 0", "chown 1", "CapEff:\t0000000000000000",
                        "Seccomp:\t0", "mount 1")
                .contains("lo \n").doesNotContain("eth0");
        Engine.removeCompanyContainers(COMPANY);
    }

    @Test
    void aSetuidRootBinaryStaysAtTheCallersUid() {
        // gVisor has no NoNewPrivs line in /proc/self/status: it always runs as if no_new_privs were set; proven here
        RunRequested run = Runs.docker(COMPANY, Map.of("image", Engine.busyboxAsAgent(), "runtime", "runsc",
                "command", sh("echo uid $(id -u); echo euid $(/usr/local/bin/euid)")));
        bus.request(run);
        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(120));

        assertThat(end.status()).as(end.output()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("uid 1000\neuid 1000\n");
    }

    /**
     * Under gVisor the pids limit counts the sandbox's tasks as under runc (the host limit makes room for gVisor's own
     * threads: GvisorPids), so pids_limit 20 runs a dozen processes; a fork bomb stops the sandbox as a whole (the run
     * FAILS, nothing is left) instead of fork() failing inside it; memory is capped.
     */
    @Test
    void pidsAndMemoryLimitsHoldUnderGvisor() {
        RunStatusChanged bomb = runsc(Map.of("pids_limit", 64, "timeout_sec", 60, "command", sh(
                "echo bombing; i=0; while [ $i -lt 300 ]; do sleep 50 & i=$((i+1)); done; echo all-started")));
        assertThat(bomb.status()).as(bomb.toString()).isEqualTo(FAILED);
        assertThat(bomb.output()).startsWith("bombing").doesNotContain("all-started");

        RunStatusChanged dozen = runsc(Map.of("pids_limit", 20, "command", sh(
                "i=0; while [ $i -lt 12 ]; do sleep 5 & i=$((i+1)); done; echo all-started; wait; echo done")));
        assertThat(dozen.status()).as(dozen.toString()).isEqualTo(SUCCEEDED);
        assertThat(dozen.output()).isEqualTo("all-started\ndone\n");

        RunStatusChanged hog = runsc(Map.of("memory", "32m", "command", sh("echo eating; exec tail /dev/zero")));
        assertThat(hog.status()).isEqualTo(FAILED);
        assertThat(hog.exitCode()).isEqualTo(137);
        assertThat(hog.output()).startsWith("eating");
    }

    @Test
    void aTimeoutKillsTheSandboxAndKeepsItsPartialOutput() {
        RunStatusChanged end = runsc(Map.of("timeout_sec", 3,
                "command", sh("echo working on it; sleep 120; echo never printed")));

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.output()).isEqualTo("working on it\n");
        assertThat(end.error()).isEqualTo("timed out after 3 s; the container was killed");
    }

    @Test
    void aRuntimeTheOperatorAllowsButTheEngineLacksRejectsTheRunBeforeAnythingIsCreated() {
        long since = System.currentTimeMillis() / 1000 - 1;
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "runtime", "trimus-test-unregistered",
                "command", sh("echo never")));
        RunStatusChanged end = requestAndAwait(run);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).startsWith("runtime trimus-test-unregistered is allowed by TRIMUS_DOCKER_RUNTIMES but"
                + " not registered with the Docker engine (registered: ").contains("runsc");
        assertThat(Engine.containersCreated(run.runId(), since)).isZero();

        RunStatusChanged refused = requestAndAwait(Runs.docker(COMPANY, Map.of("image", image, "runtime",
                "kata-runtime", "command", sh("echo never"))));
        assertThat(refused.status()).isEqualTo(REJECTED);
        assertThat(refused.error()).contains("runtime kata-runtime is not available to agents on this Trimus"
                + " (allowed: runc, runsc, trimus-test-unregistered; the operator sets TRIMUS_DOCKER_RUNTIMES)");
    }
}
