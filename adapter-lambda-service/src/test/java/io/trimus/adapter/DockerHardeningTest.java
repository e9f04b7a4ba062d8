package io.trimus.adapter;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Statistics;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static io.trimus.adapter.support.Runs.sh;
import static io.trimus.events.RunState.CANCELLED;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every isolation promise of the docker adapter (DESIGN.md §5), proven twice: {@code docker inspect} of a
 * container the product started shows the flag, and an attack from inside a container fails.
 *
 * <p>The inspections share one long-running "sleeper" run with memory, cpus, env, an issue and an input set;
 * each attack runs in its own container.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class DockerHardeningTest {

    private static final UUID COMPANY = UUID.randomUUID();
    /** Configured for the test profile in application.properties (TRIMUS_DOCKER_SECURITY_OPTS). */
    private static final String CONFIGURED_SECURITY_OPT = "apparmor=docker-default";
    private static final long MIB = 1024 * 1024;

    private static String image;
    private static RunRequested sleeper;

    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void image() {
        image = Engine.busybox();
    }

    @AfterEach
    void removeAttackContainers() {
        Engine.removeCompanyContainersExcept(COMPANY, sleeper == null ? null : sleeper.runId());
    }

    @AfterAll
    static void stopSleeper() {
        if (sleeper != null) {
            RunBus.get().cancel(sleeper);
            RunBus.get().awaitEnd(sleeper.runId(), Duration.ofSeconds(30));
            sleeper = null;
        }
        Engine.removeCompanyContainers(COMPANY);
    }

    /** The shared running container: memory 32m, cpus 0.5, an env var, an issue and an input; else defaults. */
    private InspectContainerResponse sleeper() {
        synchronized (DockerHardeningTest.class) {
            if (sleeper == null) {
                Map<String, Object> config = new LinkedHashMap<>();
                config.put("image", image);
                config.put("command", sh("echo sleeper up; exec sleep 300"));
                config.put("memory", "32m");
                config.put("cpus", 0.5);
                config.put("env", Map.of("GREETING", "hello"));
                sleeper = Runs.docker(COMPANY, config, new IssueRef("ISS-7", "Fix the build", "It is red."),
                        "do the thing");
                bus.request(sleeper);
            }
        }
        return Engine.awaitRunning(sleeper.runId());
    }

    private RunStatusChanged attack(Map<String, ?> config) {
        RunRequested run = Runs.docker(COMPANY, config);
        bus.request(run);
        return bus.awaitEnd(run.runId());
    }

    // --- read-only root filesystem, tmpfs /tmp ---------------------------------------------------------

    @Test
    void rootFilesystemIsReadOnly() {
        assertThat(sleeper().getHostConfig().getReadonlyRootfs()).isTrue();

        RunStatusChanged end = attack(Map.of("image", image, "command",
                sh("touch /pwned 2>&1; echo > /etc/passwd 2>&1; touch /tmp/fine && echo tmp writable")));

        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).contains("touch: /pwned: Read-only file system", "Read-only file system",
                "tmp writable");
    }

    @Test
    void tmpIsANosuidNodevTmpfsCappedAt64mWhereProgramsMayRun() {
        assertThat(sleeper().getHostConfig().getTmpFs())
                .isEqualTo(Map.of("/tmp", "rw,exec,nosuid,nodev,size=64m"));

        RunStatusChanged end = attack(Map.of("image", image, "command", sh(
                "grep ' /tmp ' /proc/mounts; head -c 80m /dev/zero > /tmp/fill; echo fill exit $?; du -m /tmp/fill;"
                        + " rm /tmp/fill; cp /bin/busybox /tmp/busybox && /tmp/busybox echo ran")));

        assertThat(end.output()).containsPattern("tmpfs /tmp tmpfs rw,nosuid,nodev,.*size=65536k")
                .doesNotContainPattern("tmpfs /tmp tmpfs [^\\n]*noexec")
                .contains("fill exit 1", "64\t/tmp/fill", "\nran");
    }

    @Test
    void anAgentMayAskForANoexecTmp() {
        RunStatusChanged end = attack(Map.of("image", image, "tmp_noexec", true, "command", sh(
                "grep ' /tmp ' /proc/mounts; cp /bin/busybox /tmp/busybox && /tmp/busybox echo ran")));

        assertThat(end.output()).containsPattern("tmpfs /tmp tmpfs rw,nosuid,nodev,noexec,.*size=65536k")
                .contains("/tmp/busybox: Permission denied")
                .doesNotContain("\nran");
    }

    // --- the user a container runs as ---------------------------------------------------------------------

    @Test
    void anImageWithoutAUserRunsAsNobodyNotRoot() {
        assertThat(sleeper().getConfig().getUser()).isEqualTo("65534:65534");

        RunStatusChanged end = attack(Map.of("image", image, "command", sh(
                "id -u; id -g; echo x > /tmp/mine && stat -c %u:%g /tmp/mine")));

        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("65534\n65534\n65534:65534\n");
    }

    @Test
    void anImagesOwnNonRootUserIsKept() {
        RunStatusChanged end = attack(Map.of("image", Engine.busyboxAsAgent(), "command", sh("id -u")));

        assertThat(end.output()).isEqualTo("1000\n");
    }

    @Test
    void theAgentsUserWins() {
        RunStatusChanged end = attack(Map.of("image", image, "user", "4242:4343", "command", sh("id -u; id -g")));

        assertThat(end.output()).isEqualTo("4242\n4343\n");
    }

    @Test
    void writableOptOutReallyWritesToTheRoot() {
        // as root (the test profile allows it): the default user, nobody, may write only where the image lets it
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "writable", true, "user", "0",
                "command", sh("echo agent was here > /written && cat /written; exec sleep 300")));
        bus.request(run);
        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        Engine.awaitOutput(run.runId(), "agent was here");

        assertThat(container.getHostConfig().getReadonlyRootfs()).isFalse();
        assertThat(container.getHostConfig().getTmpFs()).isNullOrEmpty();
        // bounded where the storage driver can do it; elsewhere (overlay2 on ext4) only because the test profile sets
        // TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER, and RUNNING says so (WritableLayerQuotaTest: refused otherwise)
        Map<String, String> quota = container.getHostConfig().getStorageOpt();
        if (quota == null || quota.isEmpty()) {
            assertThat(bus.await(run.runId(), RUNNING).notes()).contains("the writable root filesystem has no size"
                    + " limit: the Docker engine's storage driver cannot enforce one"
                    + " (TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER=true)");
        } else {
            assertThat(quota).isEqualTo(Map.of("size", "1g"));
        }

        bus.cancel(run);
        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.output()).isEqualTo("agent was here\n");
    }

    // --- capabilities, privileges, security options -----------------------------------------------------

    @Test
    void allCapabilitiesAreDroppedSoRootCannotChown() {
        assertThat(sleeper().getHostConfig().getCapDrop()).containsExactly(Capability.ALL);
        assertThat(sleeper().getHostConfig().getPrivileged()).isFalse();

        // root only because the test profile sets TRIMUS_DOCKER_ALLOW_ROOT: even root holds no capability
        RunStatusChanged end = attack(Map.of("image", image, "user", "0", "command",
                sh("exec 2>&1; id -u; touch /tmp/f; chown 1000:1000 /tmp/f; echo chown exit $?; grep CapEff /proc/self/status")));

        assertThat(end.output()).startsWith("0\n")
                .contains("chown: /tmp/f: Operation not permitted", "chown exit 1", "CapEff:\t0000000000000000");
    }

    @Test
    void noNewPrivilegesKeepsASetuidRootBinaryAtTheCallersUid() {
        assertThat(sleeper().getHostConfig().getSecurityOpts()).contains("no-new-privileges");

        RunStatusChanged end = attack(Map.of("image", Engine.busyboxAsAgent(), "command",
                sh("echo uid $(id -u); echo euid $(/usr/local/bin/euid); grep NoNewPrivs /proc/self/status")));

        assertThat(end.status()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("uid 1000\neuid 1000\nNoNewPrivs:\t1\n");
    }

    @Test
    void eachConfiguredSecurityOptIsAppliedAfterNoNewPrivileges() {
        assertThat(sleeper().getHostConfig().getSecurityOpts())
                .containsExactly("no-new-privileges", CONFIGURED_SECURITY_OPT);
    }

    // --- pids, memory, cpus -------------------------------------------------------------------------------

    @Test
    void defaultPidsLimitIs100() {
        assertThat(sleeper().getHostConfig().getPidsLimit()).isEqualTo(100L);
    }

    @Test
    void forkBombIsHeldAtThePidsLimitWhileTheContainerSurvives() throws Exception {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "pids_limit", 20,
                "command", sh("exec 2>&1; echo bombing; bomb() { bomb | bomb & }; (bomb) & exec sleep 300")));
        bus.request(run);
        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        assertThat(container.getHostConfig().getPidsLimit()).isEqualTo(20L);

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> pidsCurrent(container.getId()) >= 18);
        for (int i = 0; i < 5; i++) {
            assertThat(pidsCurrent(container.getId())).isLessThanOrEqualTo(20);
        }
        assertThat(Engine.inspect(run.runId()).getState().getRunning()).isTrue();
        assertThat(new ProcessBuilder("true").start().waitFor(10, TimeUnit.SECONDS)).isTrue();

        bus.cancel(run);
        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.output()).startsWith("bombing\n").contains("can't fork");
        await().atMost(Duration.ofSeconds(10)).until(() -> Engine.containerOf(run.runId()).isEmpty());
    }

    @Test
    void memoryAndSwapArePinnedToTheSameLimit() {
        HostConfig host = sleeper().getHostConfig();
        assertThat(host.getMemory()).isEqualTo(32 * MIB);
        assertThat(host.getMemorySwap()).isEqualTo(32 * MIB);
    }

    @Test
    void memoryHogIsOomKilled() {
        RunStatusChanged end = attack(Map.of("image", image, "memory", "16m",
                "command", sh("echo eating; exec tail /dev/zero")));

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.exitCode()).isEqualTo(137);
        assertThat(end.error()).isEqualTo("killed: out of memory (limit 16m)");
        assertThat(end.output()).isEqualTo("eating\n");
    }

    @Test
    void aRunThatSetsNoMemoryOrCpusGetsTheOperatorsDefaults() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh("exec sleep 300")));
        bus.request(run);
        HostConfig host = Engine.awaitRunning(run.runId()).getHostConfig();

        // TRIMUS_DOCKER_DEFAULT_MEMORY (1g, swap pinned to it) and TRIMUS_DOCKER_DEFAULT_CPUS (1): never unlimited
        assertThat(host.getMemory()).isEqualTo(1024 * MIB);
        assertThat(host.getMemorySwap()).isEqualTo(1024 * MIB);
        assertThat(host.getNanoCPUs()).isEqualTo(1_000_000_000L);

        bus.cancel(run);
        assertThat(bus.awaitEnd(run.runId(), Duration.ofSeconds(30)).status()).isEqualTo(CANCELLED);
    }

    @Test
    void cpusBecomeACfsQuota() {
        assertThat(sleeper().getHostConfig().getNanoCPUs()).isEqualTo(500_000_000L);

        RunStatusChanged end = attack(Map.of("image", image, "cpus", 0.25, "command",
                sh("cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us")));

        assertThat(end.output()).isEqualTo("25000\n100000\n");
    }

    // --- disk: the log --------------------------------------------------------------------------------------

    @Test
    void aChattyContainersLogStaysUnderItsCapOnDisk() throws Exception {
        // 40 MiB of output, twice the cap of TRIMUS_DOCKER_LOG_MAX_SIZE (10m) x TRIMUS_DOCKER_LOG_MAX_FILE (2)
        RunRequested run = Runs.docker(COMPANY, Map.of("image", image, "command", sh(
                "yes \"$(printf '%0990d' 0)\" | head -c 41943040; echo chatted; exec sleep 300")));
        bus.request(run);
        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        assertThat(container.getHostConfig().getLogConfig().getType().getType()).isEqualTo("json-file");
        assertThat(container.getHostConfig().getLogConfig().getConfig())
                .isEqualTo(Map.of("max-size", "10m", "max-file", "2"));

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Engine.lastLinesOf(container.getId(), 3).contains("chatted"));

        // the test runs on the engine's host as root: the files the engine keeps, as they are on its disk
        Path log = Path.of(container.getLogPath());
        long onDisk = 0;
        try (var files = Files.list(log.getParent())) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith(log.getFileName().toString()))
                    .toList()) {
                onDisk += Files.size(file);
            }
        }
        // json-file rotates once a file passes max-size: at most one line (~1 KiB of JSON) beyond each file's cap
        assertThat(onDisk).isGreaterThan(10 * MIB).isLessThanOrEqualTo(20 * MIB + 64 * 1024);

        bus.cancel(run);
        RunStatusChanged end = bus.awaitEnd(run.runId(), Duration.ofSeconds(30));
        assertThat(end.status()).isEqualTo(CANCELLED);
        assertThat(end.output()).endsWith("chatted\n");
    }

    // --- network -------------------------------------------------------------------------------------------

    @Test
    void networkIsNoneWithOnlyLoopback() {
        assertThat(sleeper().getHostConfig().getNetworkMode()).isEqualTo("none");
        assertThat(sleeper().getNetworkSettings().getNetworks()).containsOnlyKeys("none");

        RunStatusChanged end = attack(Map.of("image", image, "command",
                sh("ls /sys/class/net; ip -o link | cut -d: -f2; echo routes: $(ip route | wc -l)")));

        assertThat(end.output()).isEqualTo("lo\n lo\nroutes: 0\n");
    }

    // --- environment ---------------------------------------------------------------------------------------

    @Test
    void hostEnvironmentNeverEntersTheContainer() {
        assertThat(System.getenv("DATABASE_URL")).as("set by surefire for this test").isNotBlank();
        assertThat(System.getenv("TRIMUS_ENCRYPTION_KEY")).as("set by surefire for this test").isNotBlank();
        Map<String, String> env = Arrays.stream(sleeper().getConfig().getEnv())
                .map(e -> e.split("=", 2)).collect(Collectors.toMap(e -> e[0], e -> e[1]));
        assertThat(env).containsEntry("GREETING", "hello")
                .containsEntry("TRIMUS_RUN_ID", sleeper.runId().toString())
                .containsEntry("TRIMUS_AGENT_ID", sleeper.agentId().toString())
                .containsEntry("TRIMUS_ISSUE_ID", "ISS-7")
                .containsEntry("TRIMUS_ISSUE_TITLE", "Fix the build")
                .containsEntry("TRIMUS_ISSUE_BODY", "It is red.")
                .containsEntry("TRIMUS_INPUT", "do the thing")
                .doesNotContainKeys("DATABASE_URL", "TRIMUS_ENCRYPTION_KEY", "HOME", "USER", "JAVA_HOME");
        // PATH is the image's own (busybox images from scratch get Docker's default)
        assertThat(env.keySet()).containsOnly("GREETING", "TRIMUS_RUN_ID", "TRIMUS_AGENT_ID", "TRIMUS_ISSUE_ID",
                "TRIMUS_ISSUE_TITLE", "TRIMUS_ISSUE_BODY", "TRIMUS_INPUT", "PATH");

        RunStatusChanged end = attack(Map.of("image", image, "env", Map.of("GREETING", "hello"),
                "command", sh("env | cut -d= -f1 | sort")));

        Set<String> inside = Set.copyOf(List.of(end.output().strip().split("\n")));
        assertThat(inside).doesNotContain("DATABASE_URL", "TRIMUS_ENCRYPTION_KEY")
                .containsOnly("GREETING", "TRIMUS_RUN_ID", "TRIMUS_AGENT_ID", "PATH", "HOME", "HOSTNAME", "SHLVL",
                        "PWD");
    }

    // --- labels --------------------------------------------------------------------------------------------

    @Test
    void containerIsLabelledWithCompanyAgentAndRun() {
        assertThat(sleeper().getConfig().getLabels())
                .containsEntry("trimus.company_id", COMPANY.toString())
                .containsEntry("trimus.agent_id", sleeper.agentId().toString())
                .containsEntry("trimus.run_id", sleeper.runId().toString())
                .containsEntry("trimus.adapter_instance", "adapter");
        assertThat(sleeper().getName()).isEqualTo("/trimus-run-" + sleeper.runId());
    }

    /**
     * The container's process count, read from its pids cgroup on this host (the tests run beside the engine): the
     * engine's stats call can stall for a minute under a fork bomb. Falls back to the stats call elsewhere.
     */
    private static long pidsCurrent(String containerId) throws Exception {
        Long pid = Engine.docker().inspectContainerCmd(containerId).exec().getState().getPidLong();
        Path cgroups = Path.of("/proc", String.valueOf(pid), "cgroup");
        if (pid != null && pid > 0 && Files.isReadable(cgroups)) {
            for (String line : Files.readAllLines(cgroups)) {
                String[] parts = line.split(":", 3);   // hierarchy-id:controllers:path
                Path current = parts[1].isEmpty() ? Path.of("/sys/fs/cgroup" + parts[2], "pids.current")
                        : List.of(parts[1].split(",")).contains("pids")
                        ? Path.of("/sys/fs/cgroup/pids" + parts[2], "pids.current") : null;
                if (current != null && Files.isReadable(current)) {
                    return Long.parseLong(Files.readString(current).strip());
                }
            }
        }
        AtomicReference<Statistics> last = new AtomicReference<>();
        try (var stats = Engine.docker().statsCmd(containerId).withNoStream(true)
                .exec(new ResultCallback.Adapter<Statistics>() {
                    @Override
                    public void onNext(Statistics s) {
                        last.set(s);
                    }
                })) {
            stats.awaitCompletion(15, TimeUnit.SECONDS);
        }
        Statistics s = last.get();
        return s == null || s.getPidsStats() == null || s.getPidsStats().getCurrent() == null ? 0
                : s.getPidsStats().getCurrent();
    }
}
