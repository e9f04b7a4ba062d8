package io.trimus.adapter.container;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.api.model.MountType;
import io.trimus.adapter.config.ContainerLimits;
import io.trimus.adapter.config.DiskLimits;
import io.trimus.adapter.config.DockerDefaults;
import io.trimus.adapter.support.TestConfig;
import io.trimus.adapter.egress.SandboxNetwork;
import io.trimus.adapter.egress.network.EgressNetwork;
import io.trimus.adapter.support.Runs;
import io.trimus.commons.net.Cidr;
import io.trimus.adapter.run.OutputReader;
import io.trimus.adapter.run.secrets.SandboxSecrets;
import io.trimus.events.EgressCa;
import io.trimus.events.IssueRef;
import io.trimus.events.MaskScope;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.DockerAdapterConfig;
import io.trimus.events.adapter.ResourceCeilings;
import io.trimus.events.secrets.SandboxMask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The docker contract of DESIGN.md §5, flag by flag, as the policy decides it (no engine involved). */
class ContainerPolicyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DockerDefaults DEFAULTS =
            new DockerDefaults(100, "64m", List.of(), 3600);

    private final RunRequested run = Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
            UUID.randomUUID(), "docker", null, null, null, Instant.now());

    private static DockerAdapterConfig agent(Map<String, ?> config) {
        return DockerAdapterConfig.parse(JSON.valueToTree(config));
    }

    private ContainerPolicy policy(Map<String, ?> config) {
        return ContainerPolicy.forDocker(agent(config), DEFAULTS, run);
    }

    @Test
    void rootIsReadOnlyWithANosuidNodevNoexecTmpfsOf64m() {
        ContainerPolicy p = policy(Map.of("image", "busybox"));
        assertThat(p.readOnlyRoot()).isTrue();
        assertThat(p.tmpfs()).isEqualTo(Map.of("/tmp", "rw,exec,nosuid,nodev,size=64m"));
        assertThat(p.hostConfig().getReadonlyRootfs()).isTrue();
        assertThat(p.hostConfig().getTmpFs()).isEqualTo(Map.of("/tmp", "rw,exec,nosuid,nodev,size=64m"));
    }

    @Test
    void underGvisorTheHostPidsLimitMakesRoomForItsOwnThreadsAndTheRunSaysSo() {
        ContainerPolicy runc = policy(Map.of("image", "busybox", "pids_limit", 20)).underRuntime("runc");
        ContainerPolicy runsc = policy(Map.of("image", "busybox", "pids_limit", 20)).underRuntime("runsc");

        assertThat(runc.hostConfig().getPidsLimit()).isEqualTo(20L);
        assertThat(runc.hostConfig().getRuntime()).isEqualTo("runc");
        assertThat(runsc.hostConfig().getPidsLimit()).isEqualTo(64L + 8 * 20);
        assertThat(runsc.hostConfig().getRuntime()).isEqualTo("runsc");
        assertThat(runsc.notes()).anyMatch(n -> n.startsWith("runtime: runsc (gVisor") && n.contains("pids_limit 20"));
        assertThat(GvisorPids.hostLimit(-1)).as("unlimited stays unlimited").isEqualTo(-1);
        assertThat(GvisorPids.hostLimit(Long.MAX_VALUE / 2)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theUserIsTheAgentsElseTheImagesNonRootUserElseNobody() {
        assertThat(policy(Map.of("image", "busybox", "user", "1234:1234")).user()).isEqualTo("1234:1234");
        ContainerPolicy undecided = policy(Map.of("image", "busybox"));
        assertThat(undecided.user()).as("decided by the runner from the image").isNull();
        for (String root : List.of("", " ", "root", "0", "0:0", "root:root", "00:1000")) {
            assertThat(ContainerPolicy.defaultUser(root)).as("image USER '%s'", root).isEqualTo("65534:65534");
        }
        assertThat(ContainerPolicy.defaultUser("1000:1000")).isEqualTo("1000:1000");
        assertThat(ContainerPolicy.defaultUser("agent")).isEqualTo("agent");
        assertThat(undecided.runningAs("65534:65534").user()).isEqualTo("65534:65534");
    }

    @Test
    void securityOptsThatSwitchConfinementOffStopTheService() {
        for (String off : List.of("seccomp=unconfined", "seccomp:unconfined", "apparmor=unconfined",
                "apparmor:unconfined", "label=disable", "label:disable", "systempaths=unconfined",
                "SECCOMP=Unconfined")) {
            assertThatThrownBy(() -> new DockerDefaults(100, "64m", List.of(off), 3600)).as(off)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("TRIMUS_DOCKER_SECURITY_OPTS entry '" + off + "' switches off a confinement");
        }
        assertThat(new DockerDefaults(100, "64m", List.of("apparmor=docker-default", "label=type:trimus_t",
                "seccomp={\"defaultAction\":\"SCMP_ACT_ERRNO\"}"), 3600).securityOpts()).hasSize(3);
    }

    @Test
    void tmpfsSizeComesFromTheConfig() {
        ContainerPolicy p = ContainerPolicy.forDocker(agent(Map.of("image", "busybox")),
                new DockerDefaults(100, "128M", List.of(), 3600), run);
        assertThat(p.tmpfs()).isEqualTo(Map.of("/tmp", "rw,exec,nosuid,nodev,size=128m"));
    }

    @Test
    void writableOptsOutOfTheReadOnlyRootAndItsTmpfs() {
        ContainerPolicy p = policy(Map.of("image", "busybox", "writable", true));
        assertThat(p.readOnlyRoot()).isFalse();
        assertThat(p.tmpfs()).isEmpty();
        assertThat(p.hostConfig().getReadonlyRootfs()).isFalse();
        assertThat(p.hostConfig().getTmpFs()).isNull();
    }

    @Test
    void allCapabilitiesAreDroppedAndNothingIsPrivileged() {
        HostConfig host = policy(Map.of("image", "busybox", "writable", true, "network", "acme-internal")).hostConfig();
        assertThat(host.getCapDrop()).containsExactly(Capability.ALL);
        assertThat(host.getCapAdd()).isNull();
        assertThat(host.getPrivileged()).isFalse();
    }

    @Test
    void noNewPrivilegesAlwaysComesFirstThenEachConfiguredOpt() {
        ContainerPolicy p = ContainerPolicy.forDocker(agent(Map.of("image", "busybox")),
                new DockerDefaults(100, "64m",
                        List.of("apparmor=trimus-agent", "no-new-privileges", "label=type:trimus_t"), 3600), run);
        assertThat(p.securityOpts())
                .containsExactly("no-new-privileges", "apparmor=trimus-agent", "label=type:trimus_t");
        assertThat(p.hostConfig().getSecurityOpts()).isEqualTo(p.securityOpts());
        assertThat(policy(Map.of("image", "busybox", "writable", true)).securityOpts())
                .containsExactly("no-new-privileges");
    }

    @Test
    void configCannotSwitchOffNoNewPrivileges() {
        for (String off : List.of("no-new-privileges=false", "no-new-privileges:false")) {
            assertThatThrownBy(() -> new DockerDefaults(100, "64m", List.of(off), 3600))
                    .hasMessageContaining("TRIMUS_DOCKER_SECURITY_OPTS may not switch off no-new-privileges");
        }
    }

    @Test
    void aSeccompProfileFileIsSentInline(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("seccomp.json");
        Files.writeString(profile, "{\"defaultAction\":\"SCMP_ACT_ERRNO\"}");
        assertThat(DockerDefaults.inlineSeccompProfile("seccomp=" + profile))
                .isEqualTo("seccomp={\"defaultAction\":\"SCMP_ACT_ERRNO\"}");
        assertThat(DockerDefaults.inlineSeccompProfile("seccomp=unconfined")).isEqualTo("seccomp=unconfined");
        assertThat(DockerDefaults.inlineSeccompProfile("apparmor=x")).isEqualTo("apparmor=x");
        assertThatThrownBy(() -> DockerDefaults.inlineSeccompProfile("seccomp=" + dir.resolve("missing")))
                .hasMessageContaining("cannot be read");
    }

    @Test
    void pidsLimitIsTheAgentsElseTheConfigured() {
        assertThat(policy(Map.of("image", "busybox")).pidsLimit()).isEqualTo(100);
        assertThat(policy(Map.of("image", "busybox", "pids_limit", 20)).pidsLimit()).isEqualTo(20);
        assertThat(policy(Map.of("image", "busybox", "pids_limit", 20)).hostConfig().getPidsLimit()).isEqualTo(20L);
        assertThat(ContainerPolicy.forDocker(agent(Map.of("image", "busybox")),
                new DockerDefaults(42, "64m", List.of(), 3600), run).pidsLimit()).isEqualTo(42);
    }

    @Test
    void memorySwapIsPinnedToMemory() {
        ContainerPolicy p = policy(Map.of("image", "busybox", "memory", "256m"));
        assertThat(p.memoryBytes()).isEqualTo(256L * 1024 * 1024);
        assertThat(p.memorySwapBytes()).isEqualTo(p.memoryBytes());
        assertThat(p.hostConfig().getMemory()).isEqualTo(256L * 1024 * 1024);
        assertThat(p.hostConfig().getMemorySwap()).isEqualTo(256L * 1024 * 1024);
        assertThat(p.memoryLimitText()).isEqualTo("256m");
        assertThat(policy(Map.of("image", "busybox", "memory", "2g")).memoryLimitText()).isEqualTo("2g");
    }

    @Test
    void noMemoryMeansTheDefaultOf1gNeverNoLimit() {
        HostConfig host = policy(Map.of("image", "busybox")).hostConfig();
        assertThat(host.getMemory()).isEqualTo(1L << 30);
        assertThat(host.getMemorySwap()).isEqualTo(1L << 30);
        assertThat(policy(Map.of("image", "busybox")).memoryLimitText()).isEqualTo("1g");
    }

    @Test
    void cpusBecomeNanoCpusAndNoCpusMeansTheDefaultOfOne() {
        assertThat(policy(Map.of("image", "busybox", "cpus", 1.5)).hostConfig().getNanoCPUs())
                .isEqualTo(1_500_000_000L);
        assertThat(policy(Map.of("image", "busybox")).hostConfig().getNanoCPUs()).isEqualTo(1_000_000_000L);
    }

    @Test
    void everyContainerLogsToRotatedJsonFilesOf10mAtMostTwo() {
        for (Map<String, ?> agent : List.of(Map.of("image", "busybox"), Map.of("image", "busybox", "writable", true))) {
            LogConfig log = policy(agent).hostConfig().getLogConfig();
            assertThat(log.getType()).isEqualTo(LogConfig.LoggingType.JSON_FILE);
            assertThat(log.getConfig()).isEqualTo(Map.of("max-size", "10m", "max-file", "2"));
        }
    }

    @Test
    void onlyAWritableRootAsksForAStorageQuota() {
        assertThat(policy(Map.of("image", "busybox")).hostConfig().getStorageOpt()).isNull();
        assertThat(policy(Map.of("image", "busybox", "writable", true)).hostConfig().getStorageOpt())
                .isEqualTo(Map.of("size", "1g"));
        assertThat(policy(Map.of("image", "busybox", "writable", true))
                .withUnboundedWritableLayer("unbounded").hostConfig().getStorageOpt()).isNull();
    }

    @Test
    void aDefaultAboveItsCeilingStopsTheServiceAtBoot() {
        ResourceCeilings low = new ResourceCeilings(600, 50, "512m", 0.5);
        assertThatThrownBy(() -> new ContainerLimits(low, "1g", 0.5)).hasMessage(
                "TRIMUS_DOCKER_DEFAULT_MEMORY (1g) is above TRIMUS_DOCKER_MAX_MEMORY (512m); lower the default too");
        assertThatThrownBy(() -> new ContainerLimits(low, "256m", 1)).hasMessageStartingWith(
                "TRIMUS_DOCKER_DEFAULT_CPUS must be at least 0.01 and at most TRIMUS_DOCKER_MAX_CPUS");
        ContainerLimits limits = new ContainerLimits(low, "256m", 0.5);
        assertThatThrownBy(() -> new DockerDefaults(100, "64m", List.of(), 600, "adapter",
                DockerDefaults.DEFAULT_NETWORKS, false, limits, DiskLimits.DEFAULTS)).hasMessage(
                "TRIMUS_DOCKER_PIDS_LIMIT (100) is above TRIMUS_DOCKER_MAX_PIDS (50); lower the default too");
        assertThatThrownBy(() -> new DockerDefaults(50, "64m", List.of(), 3600, "adapter",
                DockerDefaults.DEFAULT_NETWORKS, false, limits, DiskLimits.DEFAULTS)).hasMessage(
                "TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC (3600) is above TRIMUS_DOCKER_MAX_TIMEOUT_SEC (600); lower the"
                        + " default too");
        assertThatThrownBy(() -> new DiskLimits("lots", 2, "1g", false))
                .hasMessageStartingWith("TRIMUS_DOCKER_LOG_MAX_SIZE must be a size like 10m");
        assertThatThrownBy(() -> new DiskLimits("10m", 0, "1g", false))
                .hasMessage("TRIMUS_DOCKER_LOG_MAX_FILE must be between 1 and 100, got 0");
    }

    @Test
    void networkIsNoneUnlessTheAgentNamesOne() {
        assertThat(policy(Map.of("image", "busybox")).hostConfig().getNetworkMode()).isEqualTo("none");
        assertThat(policy(Map.of("image", "busybox", "network", "trimus-egress-allowlist")).hostConfig()
                .getNetworkMode()).isEqualTo("trimus-egress-allowlist");
    }

    @Test
    void aSandboxOnTheEgressNetworkJoinsItByNameWithItsPinnedAddressAndTheResolver() {
        EgressNetwork egress = new EgressNetwork("0123456789ab", "trimus-egress-allowlist",
                Cidr.ipv4Subnet("172.30.0.0/24"), "172.30.0.1", true, true, "trimus-egress0", true);
        ContainerPolicy decided = policy(Map.of("image", "busybox", "network", "0123456789ab"));

        ContainerPolicy p = decided.onSandboxNetwork(SandboxNetwork.on(egress, "172.30.0.9", Optional.empty(), 3128));

        assertThat(p.network()).isEqualTo("trimus-egress-allowlist");
        assertThat(p.sandbox().ipv4Address()).isEqualTo("172.30.0.9");
        assertThat(p.hostConfig().getNetworkMode()).isEqualTo("trimus-egress-allowlist");
        assertThat(p.hostConfig().getDns()).containsExactly("172.30.0.1");
        assertThat(p.hostConfig().getCapDrop()).containsExactly(Capability.ALL);
        assertThat(p.hostConfig().getReadonlyRootfs()).isTrue();
        assertThat(p.labels()).isEqualTo(decided.labels());
        assertThat(SandboxNetwork.on(egress, "172.30.0.9", Optional.of("172.30.0.53"), 3128).dns())
                .as("TRIMUS_EGRESS_DNS_DEFAULT wins over the gateway").containsExactly("172.30.0.53");
    }

    @Test
    void onTheEgressNetworkTheProxySettingsAreTrimussAndNoAgentEnvOverridesThem() {
        EgressNetwork egress = new EgressNetwork("0123456789ab", "trimus-egress-allowlist",
                Cidr.ipv4Subnet("172.30.0.0/24"), "172.30.0.1", true, true, "trimus-egress0", true);
        ContainerPolicy decided = policy(Map.of("image", "busybox", "network", "trimus-egress-allowlist",
                "env", Map.of("HTTPS_PROXY", "http://elsewhere:8080", "Https_Proxy", "http://elsewhere:8080",
                        "no_proxy", "*", "KEEP", "me")));

        ContainerPolicy p = decided.onSandboxNetwork(SandboxNetwork.on(egress, "172.30.0.9", Optional.empty(), 3128));

        assertThat(p.env()).containsEntry("HTTPS_PROXY", "http://172.30.0.1:3128")
                .containsEntry("HTTP_PROXY", "http://172.30.0.1:3128")
                .containsEntry("https_proxy", "http://172.30.0.1:3128")
                .containsEntry("http_proxy", "http://172.30.0.1:3128")
                .containsEntry("NO_PROXY", "localhost,127.0.0.1,::1")
                .containsEntry("no_proxy", "localhost,127.0.0.1,::1")
                .containsEntry("KEEP", "me")
                .doesNotContainKey("Https_Proxy");
        assertThat(SandboxNetwork.on(egress, "172.30.0.9", Optional.of("172.30.0.53"), 3129).proxyEnv())
                .as("the proxy sits on the resolver's address").containsEntry("HTTPS_PROXY", "http://172.30.0.53:3129");
    }

    @Test
    void aMaskedSecretIsInTheEnvAsItsSurrogateAndTheOutputShowsItsName() {
        RunRequested masked = new RunRequested(UUID.randomUUID(), run.runId(), run.companyId(), run.agentId(),
                "docker", null, null, null, Instant.now(), Map.of(), null,
                Map.of("GH_TOKEN", new MaskScope("GITHUB_TOKEN", List.of("api.github.com"), null)));
        String token = "ghp_Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6";
        String npm = "npm_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8";
        ContainerPolicy p = ContainerPolicy.forDocker(agent(Map.of("image", "busybox", "secret_env",
                        Map.of("GH_TOKEN", "GITHUB_TOKEN", "NPM_TOKEN", "NPM_TOKEN"))), DEFAULTS, masked,
                SandboxSecrets.of(Map.of("GH_TOKEN", token, "NPM_TOKEN", npm), masked.masked()));

        String surrogate = p.env().get("GH_TOKEN");
        assertThat(surrogate).isNotEqualTo(token).hasSameSizeAs(token).startsWith("ghp_");
        assertThat(p.env()).containsEntry("NPM_TOKEN", npm).doesNotContainValue(token);
        assertThat(p.masks()).containsExactly(new SandboxMask("GITHUB_TOKEN", surrogate, token,
                List.of("api.github.com"), MaskScope.DEFAULT_HEADERS));
        assertThat(p.redactor().redact(surrogate + " " + token + " " + npm))
                .isEqualTo("[MASKED:GITHUB_TOKEN] [REDACTED] [REDACTED]");
        assertThat(p.toString()).doesNotContain(surrogate).doesNotContain(token);
    }

    @Test
    void theEgressCaIsMountedReadOnlyAndItsVariablesAreTrimuss() {
        ContainerPolicy p = policy(Map.of("image", "busybox")).withEgressCa("trimus-egress-ca-0123456789abcdef");

        assertThat(p.hostConfig().getMounts()).singleElement().satisfies(m -> {
            assertThat(m.getType()).isEqualTo(MountType.VOLUME);
            assertThat(m.getSource()).isEqualTo("trimus-egress-ca-0123456789abcdef");
            assertThat(m.getTarget()).isEqualTo(EgressCa.DIRECTORY);
            assertThat(m.getReadOnly()).isTrue();
        });
        assertThat(p.env()).containsEntry("NODE_EXTRA_CA_CERTS", EgressCa.CA_FILE)
                .containsEntry("SSL_CERT_FILE", EgressCa.BUNDLE_FILE).containsEntry("REQUESTS_CA_BUNDLE",
                        EgressCa.BUNDLE_FILE).containsEntry("CURL_CA_BUNDLE", EgressCa.BUNDLE_FILE)
                .containsEntry("CODEX_CA_CERTIFICATE", EgressCa.BUNDLE_FILE);
        assertThat(policy(Map.of("image", "busybox")).hostConfig().getMounts()).as("no CA, no mount").isNull();
    }

    @Test
    void aDockerRunsOutputIsReadByNobodyAndAReaderStaysThroughEveryLaterDecision() {
        ContainerPolicy docker = policy(Map.of("image", "busybox", "network", "0123456789ab"));
        OutputReader reader = (event, raw, redactor) -> event;
        EgressNetwork egress = new EgressNetwork("0123456789ab", "trimus-egress-allowlist",
                Cidr.ipv4Subnet("172.30.0.0/24"), "172.30.0.1", true, true, "trimus-egress0", true);

        ContainerPolicy read = docker.readingOutput(reader).onSandboxNetwork(SandboxNetwork.on(egress, "172.30.0.9",
                Optional.empty(), 3128)).withEgressCa("ca-volume").runningAs("1000:1000");

        assertThat(docker.outputReader()).isSameAs(OutputReader.NONE);
        assertThat(read.outputReader()).isSameAs(reader);
        assertThat(read.withUnboundedWritableLayer("note").outputReader()).isSameAs(reader);
    }

    @Test
    void offTheEgressNetworkNoResolverIsSet() {
        assertThat(policy(Map.of("image", "busybox", "network", "acme-internal")).hostConfig().getDns()).isNull();
        assertThat(policy(Map.of("image", "busybox")).sandbox()).isNull();
    }

    @Test
    void envIsOnlyTheAgentsPlusTrimusContext() {
        RunRequested withIssue = Runs.request(UUID.randomUUID(), run.runId(), run.companyId(), run.agentId(),
                "docker", null, new IssueRef("ISS-1", "Title", "Body"), "the input", Instant.now());
        ContainerPolicy p = ContainerPolicy.forDocker(agent(Map.of("image", "busybox", "env", Map.of("A", "1"))),
                DEFAULTS, withIssue);
        assertThat(p.env()).containsExactly(
                Map.entry("A", "1"),
                Map.entry("TRIMUS_AGENT_ID", run.agentId().toString()),
                Map.entry("TRIMUS_RUN_ID", run.runId().toString()),
                Map.entry("TRIMUS_ISSUE_ID", "ISS-1"),
                Map.entry("TRIMUS_ISSUE_TITLE", "Title"),
                Map.entry("TRIMUS_ISSUE_BODY", "Body"),
                Map.entry("TRIMUS_INPUT", "the input"));
        assertThat(p.envList()).contains("A=1", "TRIMUS_INPUT=the input");
    }

    @Test
    void absentIssueFieldsAndInputAreNotInvented() {
        RunRequested partial = Runs.request(UUID.randomUUID(), run.runId(), run.companyId(), run.agentId(),
                "docker", null, new IssueRef(null, "Only a title", null), null, Instant.now());
        ContainerPolicy p = ContainerPolicy.forDocker(agent(Map.of("image", "busybox")), DEFAULTS, partial);
        assertThat(p.env()).containsOnlyKeys("TRIMUS_AGENT_ID", "TRIMUS_RUN_ID", "TRIMUS_ISSUE_TITLE");
    }

    @Test
    void theHostEnvironmentIsNeverCopied() {
        ContainerPolicy p = policy(Map.of("image", "busybox"));
        assertThat(p.env()).containsOnlyKeys("TRIMUS_AGENT_ID", "TRIMUS_RUN_ID");
        System.getenv().keySet().forEach(name -> assertThat(p.env()).doesNotContainKey(name));
    }

    @Test
    void labelsNameTheInstanceCompanyAgentAndRunAndTheNameIsTheRun() {
        ContainerPolicy p = policy(Map.of("image", "busybox"));
        assertThat(p.labels()).containsExactly(
                Map.entry("trimus.adapter_instance", "adapter"),
                Map.entry("trimus.company_id", run.companyId().toString()),
                Map.entry("trimus.agent_id", run.agentId().toString()),
                Map.entry("trimus.run_id", run.runId().toString()));
        assertThat(p.name()).isEqualTo("trimus-run-" + run.runId());
    }

    @Test
    void timeoutIsTheAgentsElseTheConfigured() {
        assertThat(policy(Map.of("image", "busybox")).timeout()).isEqualTo(Duration.ofHours(1));
        assertThat(policy(Map.of("image", "busybox", "timeout_sec", 10)).timeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void commandReplacesTheImageCmdOnlyWhenGiven() {
        assertThat(policy(Map.of("image", "busybox")).command()).isEmpty();
        assertThat(policy(Map.of("image", "busybox", "command", List.of("echo", "hi"))).command())
                .containsExactly("echo", "hi");
    }

    @Test
    void wrongDefaultsStopTheServiceNamingTheKnob() {
        assertThatThrownBy(() -> new DockerDefaults(0, "64m", List.of(), 3600))
                .hasMessageContaining("TRIMUS_DOCKER_PIDS_LIMIT");
        assertThatThrownBy(() -> new DockerDefaults(100, "lots", List.of(), 3600))
                .hasMessageContaining("TRIMUS_DOCKER_TMPFS_SIZE");
        assertThatThrownBy(() -> new DockerDefaults(100, "64m", List.of(), 5))
                .hasMessageContaining("TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC");
    }

    @Test
    void theTimeoutFloorMayOnlyBeLowered() {
        assertThat(DockerDefaults.minTimeoutSec(TestConfig.of().docker())).as("default").isEqualTo(10);
        assertThat(DockerDefaults.minTimeoutSec(TestConfig.of("trimus.docker.min-timeout-sec", "1").docker()))
                .isEqualTo(1);
        assertThatThrownBy(() -> DockerDefaults.minTimeoutSec(
                TestConfig.of("trimus.docker.min-timeout-sec", "11").docker()))
                .hasMessage("TRIMUS_DOCKER_MIN_TIMEOUT_SEC must be between 1 and 10, got 11");
        assertThatThrownBy(() -> DockerDefaults.minTimeoutSec(
                TestConfig.of("trimus.docker.min-timeout-sec", "0").docker()))
                .hasMessage("TRIMUS_DOCKER_MIN_TIMEOUT_SEC must be between 1 and 10, got 0");
    }

    @Test
    void aProbeContainerHasEveryHardeningFlagSmallLimitsANonRootUserAndTheLabelsOfARun() {
        UUID canary = UUID.randomUUID();
        RunRequested probe = Runs.request(UUID.randomUUID(), canary, UUID.randomUUID(),
                io.trimus.events.CanaryRequested.PROBE_AGENT_ID, "docker", null, null, null, Instant.now());
        DockerDefaults defaults = new DockerDefaults(100, "64m", List.of("apparmor=docker-default"), 3600);

        ContainerPolicy p = ContainerPolicy.forProbe(probe, "trimus/busybox:local", List.of("sh", "-c", "true"),
                Map.of("CANARY_UNLISTED_NAME", "x.invalid"), defaults, "trimus-egress-allowlist",
                new ContainerPolicy.ProbeLimits(64, 64L << 20, 0.5, java.time.Duration.ofSeconds(60)));

        assertThat(p.name()).isEqualTo("trimus-canary-" + canary);
        assertThat(p.entrypoint()).containsExactly("sh");
        assertThat(p.command()).containsExactly("-c", "true");
        assertThat(p.user()).isEqualTo("1000:1000");
        assertThat(p.readOnlyRoot()).isTrue();
        assertThat(p.tmpfs()).isEqualTo(Map.of("/tmp", "rw,nosuid,nodev,noexec,size=1m"));
        assertThat(p.capDrop()).containsExactly("ALL");
        assertThat(p.securityOpts()).containsExactly("no-new-privileges", "apparmor=docker-default");
        assertThat(p.hostConfig().getPrivileged()).isFalse();
        assertThat(p.pidsLimit()).isEqualTo(64);
        assertThat(p.memoryBytes()).isEqualTo(64L << 20).isEqualTo(p.memorySwapBytes());
        assertThat(p.nanoCpus()).isEqualTo(500_000_000L);
        assertThat(p.network()).isEqualTo("trimus-egress-allowlist");
        assertThat(p.timeout()).hasSeconds(60);
        assertThat(p.labels()).containsEntry(ContainerPolicy.LABEL_RUN, canary.toString())
                .containsEntry(ContainerPolicy.LABEL_AGENT, "00000000-0000-0000-0000-00000000ca7a")
                .containsKey(ContainerPolicy.LABEL_INSTANCE);
        assertThat(p.env()).containsOnlyKeys("CANARY_UNLISTED_NAME");
    }
}
