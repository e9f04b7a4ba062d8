package io.trimus.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.HostConfig;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.support.CapturedLogs;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.Registrations;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.StandInOutput;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.trimus.adapter.support.EgressTestResource.GATEWAY;
import static io.trimus.adapter.support.EgressTestResource.NETWORK;
import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * claude_sandbox / codex_sandbox on the real engine with the stand-in CLI image (DESIGN.md §9): the argv and the
 * curated environment exactly as promised, the dangerous flag dropped under the guardrail (on in this app), the
 * docker adapter's attacks failing here too, the provider key masked in everything reported, and every fail-secure
 * case ending FAILED or REJECTED before the CLI starts.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class CliSandboxTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final String API_KEY = "sk-ant-test-" + UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(60);
    /** What Docker and the shell add to every process's environment, besides what the adapter sets. */
    private static final Set<String> ENGINE_AND_SHELL = Set.of("PATH", "HOSTNAME", "PWD", "SHLVL", "_", "OLDPWD");
    /** What every container on the egress network and every Claude Code sandbox gets. */
    private static final Set<String> PROXY_AND_QUIET = Set.of("HTTPS_PROXY", "HTTP_PROXY", "https_proxy",
            "http_proxy", "NO_PROXY", "no_proxy", "NODE_USE_ENV_PROXY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
            "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING", "DISABLE_AUTOUPDATER", "NODE_EXTRA_CA_CERTS",
            "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "CODEX_CA_CERTIFICATE", "GIT_SSL_CAINFO");
    private static String image;

    private final RunBus bus = RunBus.get();
    private final Registrations registrations = Registrations.ofApp();

    @Inject
    EnsureEgressNetwork egressNetwork;

    @BeforeAll
    static void image() {
        image = TestImages.cliStandIn(Engine.docker());
    }

    @BeforeEach
    void egressNetworkIsReady() {
        await().atMost(Duration.ofSeconds(60)).until(() -> egressNetwork.status().ready());
    }

    @AfterEach
    void resolverAnswersAgain() {
        registrations.resolver("TRIMUS");
        Engine.removeCompanyContainers(COMPANY);
    }

    @AfterAll
    static void removeCompanyContainers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    // --- what the CLI gets ----------------------------------------------------------------------------------

    @Test
    void claudeGetsExactlyThePromisedArgvAndEnvironmentAndTheGuardrailDropsTheDangerousFlag() {
        try (CapturedLogs logs = CapturedLogs.install()) {
            RunRequested run = claude(Map.of("model", "claude-sonnet-4-5", "extra_args", List.of("--max-turns", "2"),
                    "dangerously_skip_permissions", true), "Fix the login form");
            bus.request(run);

            RunStatusChanged end = bus.awaitEnd(run.runId(), END);
            StandInOutput out = StandInOutput.parse(end.output());

            assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
            assertThat(out.after("standin=")).isEqualTo("claude");
            assertThat(out.argv()).containsExactly("-p", "--output-format", "json", "--model", "claude-sonnet-4-5",
                    "--max-turns", "2", "--", "Fix the login form");
            assertThat(out.env()).containsEntry("HOME", "/tmp").containsEntry("IS_SANDBOX", "1")
                    .containsEntry("TRIMUS_RUN_ID", run.runId().toString())
                    .containsEntry("TRIMUS_AGENT_ID", run.agentId().toString())
                    .containsEntry("TRIMUS_INPUT", "Fix the login form")
                    .containsEntry("ANTHROPIC_API_KEY", "[REDACTED]");
            String proxy = "http://" + GATEWAY + ":3128";
            assertThat(out.env()).as("the CLI goes out through the Trimus egress proxy")
                    .containsEntry("HTTPS_PROXY", proxy).containsEntry("HTTP_PROXY", proxy)
                    .containsEntry("https_proxy", proxy).containsEntry("http_proxy", proxy)
                    .containsEntry("NO_PROXY", "localhost,127.0.0.1,::1")
                    .containsEntry("no_proxy", "localhost,127.0.0.1,::1")
                    .containsEntry("NODE_USE_ENV_PROXY", "1");
            assertThat(out.env()).as("and sends nothing but its work")
                    .containsEntry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                    .containsEntry("DISABLE_TELEMETRY", "1").containsEntry("DISABLE_ERROR_REPORTING", "1")
                    .containsEntry("DISABLE_AUTOUPDATER", "1");
            assertThat(out.env()).as("and trusts the egress CA")
                    .containsEntry("NODE_EXTRA_CA_CERTS", "/etc/trimus/egress-ca.pem")
                    .containsEntry("SSL_CERT_FILE", "/etc/trimus/ca-bundle.pem")
                    .containsEntry("CODEX_CA_CERTIFICATE", "/etc/trimus/ca-bundle.pem");
            assertThat(out.env().keySet()).as("nothing of the host, only the curated set")
                    .allSatisfy(name -> assertThat(name).isIn(union(union(ENGINE_AND_SHELL, PROXY_AND_QUIET),
                            Set.of("HOME", "IS_SANDBOX", "TRIMUS_RUN_ID", "TRIMUS_AGENT_ID", "TRIMUS_INPUT",
                                    "ANTHROPIC_API_KEY"))));
            assertThat(System.getenv("DATABASE_URL")).as("set on this service by surefire").isNotBlank();
            assertThat(end.output()).doesNotContain(API_KEY).doesNotContain(System.getenv("DATABASE_URL"))
                    .doesNotContain(System.getenv("TRIMUS_ENCRYPTION_KEY")).doesNotContain("LOCAL_ADAPTER_CANARY");
            assertThat(out.after("uid=")).isEqualTo("1000");
            assertThat(out.after("cwd=")).isEqualTo("/workspace");

            RunStatusChanged running = bus.await(run.runId(), RUNNING);
            assertThat(running.notes()).contains("runtime: runc").filteredOn(note -> !note.startsWith("runtime: "))
                    .singleElement().asString().startsWith("SEC-015: --dangerously-skip-permissions was dropped");
            assertThat(logs.lines()).anySatisfy(line -> assertThat(line).contains("SEC-015")
                    .contains(run.runId().toString()));
            assertThat(logs.lines()).noneSatisfy(line -> assertThat(line).contains(API_KEY));
        }
    }

    @Test
    void theGuardrailDropsAllowedToolsRulesThatApproveEveryShellCommand() {
        RunRequested run = claude(Map.of("image", image, "extra_args",
                List.of("--allowedTools", "Read,Bash,Bash(sh -c:*),Bash(git log:*)")), "List the files");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        StandInOutput out = StandInOutput.parse(end.output());

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(out.argv()).containsExactly("-p", "--output-format", "json", "--allowedTools",
                "Read,Bash(git log:*)", "--", "List the files");
        assertThat(bus.await(run.runId(), RUNNING).notes()).contains("runtime: runc")
                .filteredOn(note -> !note.startsWith("runtime: ")).hasSize(2)
                .allSatisfy(note -> assertThat(note).startsWith("SEC-015: --allowedTools rule"));
    }

    @Test
    void anImagesOwnEntrypointCannotWrapOrReplaceTheCliInvocation() {
        String wrapper = TestImages.withEntrypoint(Engine.docker(), image, "trimus-test/entrypoint-bypass:latest",
                "[\"/bin/sh\", \"-c\", \"echo ENTRYPOINT-BYPASS; echo argv=$*\", \"bypass\"]");
        RunRequested run = claude(Map.of("image", wrapper, "dangerously_skip_permissions", true), "Fix it");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).doesNotContain("ENTRYPOINT-BYPASS");
        StandInOutput out = StandInOutput.parse(end.output());
        assertThat(out.after("standin=")).isEqualTo("claude");
        assertThat(out.argv()).as("the guardrail's decision stands").containsExactly("-p", "--output-format", "json",
                "--", "Fix it");
    }

    @Test
    void codexRunsExecJsonWithItsOwnKey() {
        RunRequested run = request("codex_sandbox", Map.of("image", image), "Refactor it",
                Map.of("OPENAI_API_KEY", API_KEY));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        StandInOutput out = StandInOutput.parse(end.output());

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(out.argv()).as("analytics, update check, plugins and apps off by config, the key read from"
                        + " OPENAI_API_KEY by an HTTPS-only provider, no git repository needed")
                .containsExactly("-c", "analytics.enabled=false", "-c", "check_for_update_on_startup=false",
                        "-c", "model_provider=openai-https",
                        "-c", "model_providers.openai-https={name=\"OpenAI\",base_url=\"https://api.openai.com/v1\","
                                + "env_key=\"OPENAI_API_KEY\",wire_api=\"responses\",supports_websockets=false}",
                        "--disable", "plugins", "--disable", "apps",
                        "exec", "--json", "--skip-git-repo-check", "--", "Refactor it");
        assertThat(out.env()).containsEntry("OPENAI_API_KEY", "[REDACTED]").doesNotContainKey("ANTHROPIC_API_KEY")
                .containsEntry("CODEX_HOME", "/codex")
                .containsEntry("HTTPS_PROXY", "http://" + GATEWAY + ":3128").containsEntry("NODE_USE_ENV_PROXY", "1")
                .doesNotContainKey("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC");
        assertThat(out.lines()).contains("{\"type\":\"turn.completed\"}");
    }

    @Test
    void aSecretTheCliPrintsIsMaskedInTheOutputAndNeverLogged() {
        try (CapturedLogs logs = CapturedLogs.install()) {
            RunRequested run = claude(Map.of(), "@print-env ANTHROPIC_API_KEY\n@sh echo \"leak:$ANTHROPIC_API_KEY\" >&2"
                    + "\n@exit 4");
            bus.request(run);

            RunStatusChanged end = bus.awaitEnd(run.runId(), END);

            assertThat(end.status()).isEqualTo(FAILED);
            assertThat(end.output()).contains("ANTHROPIC_API_KEY=[REDACTED]", "leak:[REDACTED]")
                    .doesNotContain(API_KEY);
            assertThat(logs.lines()).noneSatisfy(line -> assertThat(line).contains(API_KEY));
        }
    }

    // --- isolation ------------------------------------------------------------------------------------------

    @Test
    void theContainerHasTheFullSandboxHardeningOnTheEgressNetwork() {
        RunRequested run = claude(Map.of("memory", "128m", "cpus", 0.5), "@sleep 300");
        bus.request(run);
        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        HostConfig host = container.getHostConfig();

        assertThat(host.getReadonlyRootfs()).isTrue();
        assertThat(host.getTmpFs()).containsOnlyKeys("/tmp", "/workspace");
        assertThat(host.getTmpFs().get("/tmp")).contains("nosuid");
        assertThat(host.getCapDrop()).extracting(Enum::name).containsExactly("ALL");
        assertThat(host.getSecurityOpts()).contains("no-new-privileges");
        assertThat(host.getPidsLimit()).as("TRIMUS_SANDBOX_PIDS_LIMIT default").isEqualTo(100L);
        assertThat(host.getMemory()).isEqualTo(128L << 20);
        assertThat(host.getMemorySwap()).isEqualTo(128L << 20);
        assertThat(host.getNanoCPUs()).isEqualTo(500_000_000L);
        assertThat(host.getPrivileged()).isFalse();
        assertThat(host.getNetworkMode()).isEqualTo(NETWORK);
        assertThat(host.getDns()).containsExactly(GATEWAY);
        assertThat(registrations.putsOf(run.runId())).as("claimed before the container exists, confirmed before start")
                .extracting(Registrations.Request::containerState).containsExactly(null, "created");
        bus.cancel(run);
        bus.awaitEnd(run.runId(), END);
    }

    @Test
    void aSandboxThatSetsNoMemoryOrCpusGetsTheOperatorsDefaultsAndARotatedLog() {
        RunRequested run = claude(Map.of(), "@sleep 300");
        bus.request(run);
        HostConfig host = Engine.awaitRunning(run.runId()).getHostConfig();

        assertThat(host.getMemory()).as("TRIMUS_DOCKER_DEFAULT_MEMORY").isEqualTo(1L << 30);
        assertThat(host.getMemorySwap()).isEqualTo(1L << 30);
        assertThat(host.getNanoCPUs()).as("TRIMUS_DOCKER_DEFAULT_CPUS").isEqualTo(1_000_000_000L);
        assertThat(host.getLogConfig().getType().getType()).isEqualTo("json-file");
        assertThat(host.getLogConfig().getConfig()).isEqualTo(Map.of("max-size", "10m", "max-file", "2"));
        bus.cancel(run);
        bus.awaitEnd(run.runId(), END);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "the root is read-only        | touch /pwned 2>&1; touch /usr/local/bin/claude 2>&1 | Read-only file system",
            "root cannot chown (cap ALL)  | touch /tmp/f; chown 0:0 /tmp/f 2>&1; grep CapEff /proc/self/status | CapEff:\t0000000000000000",
            "setuid gives no root (nnp)   | /usr/local/bin/euid; grep NoNewPrivs /proc/self/status | NoNewPrivs:\t1",
            "only the egress interface    | echo nets: $(ls /sys/class/net) | nets: eth0 lo",
    })
    void theDockerSuitesAttacksFailInsideTheSandbox(String attack, String script, String evidence) {
        RunRequested run = claude(Map.of(), "@sh " + script);
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(attack).isEqualTo(SUCCEEDED);
        assertThat(end.output()).as(attack).contains(evidence);
        assertThat(end.output()).as(attack).doesNotContain("euid 0").doesNotContain("\n0\nNoNewPrivs");
    }

    @Test
    void aSetuidRootHelperRunsAtTheAgentsUid() {
        RunRequested run = claude(Map.of(), "@sh echo euid=$(/usr/local/bin/euid)");
        bus.request(run);

        assertThat(bus.awaitEnd(run.runId(), END).output()).contains("euid=1000");
    }

    @Test
    void theWorkspaceIsWritableAndAMemoryHogIsKilledInsideItsLimit() {
        RunRequested run = claude(Map.of("memory", "32m"), "@sh echo ok > /workspace/file && cat /workspace/file\n"
                + "@sh tail /dev/zero");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.output()).contains("ok\n").contains("sh-exit=137");
    }

    @Test
    void aTimeoutKillsTheContainerAndKeepsThePartialOutput() {
        // below run-service's floor of 10 s: this app's TRIMUS_DOCKER_MIN_TIMEOUT_SEC is lowered (application.properties)
        RunRequested run = claude(Map.of("timeout_sec", 3), "@sh echo started work\n@sleep 120");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.output()).contains("started work");
        assertThat(end.error()).isEqualTo("timed out after 3 s; the container was killed");
    }

    // --- fail-secure ----------------------------------------------------------------------------------------

    @Test
    void aResolverThatDoesNotAnswerFailsTheRunAndTheCliNeverStarts() {
        registrations.resolver("SILENT");
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = claude(Map.of(), "hello");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).contains("does not answer").endsWith("the container was not started");
        assertThat(Engine.containerEvents(run.runId(), since, "create")).isZero();
    }

    @Test
    void aFailedRegistrationFailsTheRunAndTheCliNeverStarts() {
        UUID company = UUID.randomUUID();
        registrations.answer(company, 503);
        long since = Instant.now().getEpochSecond() - 1;
        RunRequested run = request(company, "claude_sandbox", Map.of("image", image), "hello",
                Map.of("ANTHROPIC_API_KEY", API_KEY));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).startsWith("could not register the sandbox with egress-service");
        assertThat(Engine.containerEvents(run.runId(), since, "start")).isZero();
    }

    @Test
    void aMissingImageFailsTheRunWithItsName() {
        RunRequested run = claude(Map.of("image", "trimus-test/no-such-cli:1"), "hello");
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.error()).isEqualTo("image trimus-test/no-such-cli:1 not found on the Docker engine");
    }

    @Test
    void secretsSealedUnderAnotherKeyAreRejectedBeforeAnythingStarts() {
        byte[] other = new byte[32];
        new SecureRandom().nextBytes(other);
        UUID runId = UUID.randomUUID();
        UUID agentId = UUID.randomUUID();
        RunRequested run = Runs.request(UUID.randomUUID(), runId, COMPANY, agentId, "claude_sandbox",
                JSON.valueToTree(Map.of("image", image)), null, "hello", Instant.now(),
                new DispatchSecrets(EncryptionKey.parse(Base64.getEncoder().encodeToString(other)).dispatchKey())
                        .seal(COMPANY, agentId, runId, Map.of("ANTHROPIC_API_KEY", API_KEY)));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).contains("do not open with this adapter service's TRIMUS_ENCRYPTION_KEY");
    }

    @Test
    void aRunWithoutTheProviderKeyOrAPromptIsRejected() {
        RunRequested noKey = request("claude_sandbox", Map.of("image", image), "hello", Map.of());
        RunRequested noPrompt = request("claude_sandbox", Map.of("image", image), "  ",
                Map.of("ANTHROPIC_API_KEY", API_KEY));
        bus.request(noKey);
        bus.request(noPrompt);

        assertThat(bus.awaitEnd(noKey.runId(), END)).satisfies(end -> {
            assertThat(end.status()).isEqualTo(REJECTED);
            assertThat(end.error()).contains("ANTHROPIC_API_KEY");
        });
        assertThat(bus.awaitEnd(noPrompt.runId(), END)).satisfies(end -> {
            assertThat(end.status()).isEqualTo(REJECTED);
            assertThat(end.error()).contains("needs a prompt");
        });
    }

    // --- helpers --------------------------------------------------------------------------------------------

    private RunRequested claude(Map<String, ?> config, String input) {
        Map<String, Object> withImage = new HashMap<>(config);
        withImage.putIfAbsent("image", image);
        return request("claude_sandbox", withImage, input, Map.of("ANTHROPIC_API_KEY", API_KEY));
    }

    private static RunRequested request(String type, Map<String, ?> config, String input, Map<String, String> plain) {
        return request(COMPANY, type, config, input, plain);
    }

    /** A request as run-service publishes it: the secrets sealed under the key this app was given. */
    private static RunRequested request(UUID company, String type, Map<String, ?> config, String input,
                                        Map<String, String> plain) {
        UUID runId = UUID.randomUUID();
        EncryptionKey key = EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key",
                String.class));
        UUID agentId = UUID.randomUUID();
        return Runs.request(UUID.randomUUID(), runId, company, agentId, type, JSON.valueToTree(config),
                null, input, Instant.now(),
                new DispatchSecrets(key.dispatchKey()).seal(company, agentId, runId, plain));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return all;
    }
}
