package io.trimus.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.support.CapturedLogs;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.StandInOutput;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.RUNNING;
import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * claude_local / codex_local with the stand-in CLI as a host binary (DESIGN.md §9), in this app's configuration
 * (TRIMUS_LOCAL_ADAPTERS=warn, codex pinned to one absolute path, the guardrail on): the agent's home as working
 * directory, the service's environment minus the strip list, the binary allowlist, and a timeout that leaves no
 * process of the tree behind.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class LocalCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final String API_KEY = "sk-ant-local-" + UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(60);
    private static final Path BINARIES = Path.of("target", "cli-standin").toAbsolutePath();
    private static Path claude;
    private static Path pinnedCodex;
    private static Path otherCodex;
    private static Path evil;

    private final RunBus bus = RunBus.get();

    @BeforeAll
    static void standInBinaries() throws IOException {
        claude = standIn("bin", "claude");
        pinnedCodex = standIn("pinned", "codex"); // = %test.trimus.codex-binary-allowlist
        otherCodex = standIn("other", "codex");
        evil = standIn("bin", "evil");
    }

    private static Path standIn(String dir, String name) throws IOException {
        Files.createDirectories(BINARIES.resolve(dir));
        return TestImages.cliStandInScript(BINARIES.resolve(dir), name);
    }

    @Test
    void aClaudeRunWorksInTheAgentsPrivateHomeWithTheHostEnvironmentMinusTheStripList() throws IOException {
        try (CapturedLogs logs = CapturedLogs.install()) {
            RunRequested run = request("claude_local", Map.of("command", claude.toString(),
                    "dangerously_skip_permissions", true), "@print-env ANTHROPIC_API_KEY",
                    Map.of("ANTHROPIC_API_KEY", API_KEY));
            bus.request(run);

            RunStatusChanged end = bus.awaitEnd(run.runId(), END);
            StandInOutput out = StandInOutput.parse(end.output());
            Path home = Path.of(ConfigProvider.getConfig().getValue("trimus.home", String.class), "agents",
                    run.agentId().toString()).toAbsolutePath().normalize();

            assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
            assertThat(out.after("cwd=")).isEqualTo(home.toString());
            assertThat(Files.getPosixFilePermissions(home)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
            assertThat(out.argv()).containsExactly("-p", "--output-format", "json", "--",
                    "@print-env ANTHROPIC_API_KEY");
            assertThat(out.env()).containsEntry("LOCAL_ADAPTER_CANARY", "inherited-by-host-processes")
                    .containsEntry("PATH", System.getenv("PATH"))
                    .containsEntry("TRIMUS_RUN_ID", run.runId().toString())
                    .containsEntry("ANTHROPIC_API_KEY", "[REDACTED]")
                    .doesNotContainKeys("DATABASE_URL", "TRIMUS_ENCRYPTION_KEY");
            assertThat(end.output()).contains("ANTHROPIC_API_KEY=[REDACTED]").doesNotContain(API_KEY)
                    .doesNotContain(System.getenv("TRIMUS_ENCRYPTION_KEY"));
            assertThat(bus.await(run.runId(), RUNNING).notes()).singleElement().asString().startsWith("SEC-015");
            assertThat(logs.lines()).anySatisfy(line -> assertThat(line).contains(run.runId().toString())
                    .contains("host process without isolation"));
            assertThat(logs.lines()).noneSatisfy(line -> assertThat(line).contains(API_KEY));
        }
    }

    @Test
    void aClaudeRunReportsTheAnswerOfItsResultMaskedTheResultAsRawOutputAndItsUsage() {
        String escapedKey = API_KEY.chars().mapToObj(c -> String.format("\\u%04x", c))
                .collect(java.util.stream.Collectors.joining());
        String result = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"num_turns\":1,"
                + "\"result\":\"Done with " + escapedKey + "\",\"total_cost_usd\":0.5,"
                + "\"usage\":{\"input_tokens\":10,\"output_tokens\":2}}";
        RunRequested run = request("claude_local", Map.of("command", claude.toString()), "@result " + result,
                Map.of("ANTHROPIC_API_KEY", API_KEY));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("Done with [REDACTED]");
        assertThat(end.rawOutput()).endsWith("\n" + result + "\n").doesNotContain(API_KEY);
        assertThat(end.usage().inputTokens()).isEqualTo(10L);
        assertThat(end.usage().costUsd()).isEqualByComparingTo("0.5");
        assertThat(end.usage().turns()).isEqualTo(1);
    }

    @Test
    void theExitCodeOfTheCliDecidesTheOutcome() {
        RunRequested run = request("claude_local", Map.of("command", claude.toString()), "@exit 3", Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(FAILED);
        assertThat(end.exitCode()).isEqualTo(3);
        assertThat(end.error()).isEqualTo("exited with code 3");
    }

    @Test
    void codexRunsFromItsPinnedAbsolutePathOnly() {
        RunRequested pinned = request("codex_local", Map.of("command", pinnedCodex.toString()), "go",
                Map.of("OPENAI_API_KEY", "sk-proj-local0123456789abcdef"));
        RunRequested other = request("codex_local", Map.of("command", otherCodex.toString()), "go", Map.of());
        bus.request(pinned);
        bus.request(other);

        RunStatusChanged pinnedEnd = bus.awaitEnd(pinned.runId(), END);
        RunStatusChanged otherEnd = bus.awaitEnd(other.runId(), END);

        assertThat(pinnedEnd.status()).as(pinnedEnd.error()).isEqualTo(SUCCEEDED);
        StandInOutput out = StandInOutput.parse(pinnedEnd.output());
        assertThat(out.argv()).containsExactly("exec", "--json", "--skip-git-repo-check", "--", "go");
        assertThat(out.env()).as("Codex's exec reads its key from CODEX_API_KEY").containsEntry("CODEX_API_KEY",
                "[REDACTED]").containsEntry("OPENAI_API_KEY", "[REDACTED]");
        assertThat(otherEnd.status()).isEqualTo(REJECTED);
        assertThat(otherEnd.error()).isEqualTo("binary " + otherCodex + " is not on TRIMUS_CODEX_BINARY_ALLOWLIST ("
                + pinnedCodex + ")");
    }

    @Test
    void aBinaryWhoseNameIsNotOnTheListIsRejected() {
        RunRequested run = request("claude_local", Map.of("command", evil.toString()), "go", Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).contains("is not on TRIMUS_CLAUDE_BINARY_ALLOWLIST");
    }

    @Test
    void aTimeoutKillsTheWholeProcessTreeAndKeepsThePartialOutput() {
        // below run-service's floor of 10 s: this app's TRIMUS_DOCKER_MIN_TIMEOUT_SEC is lowered (application.properties)
        RunRequested run = request("claude_local", Map.of("command", claude.toString(), "timeout_sec", 3),
                "@spawn-sleeper 300\n@sh echo working\n@sleep 300", Map.of());
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        String sleeper = StandInOutput.parse(end.output()).after("sleeper-pid=");

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.output()).contains("working");
        assertThat(end.error()).isEqualTo("timed out after 3 s; the process tree was killed");
        assertThat(sleeper).isNotNull();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ProcessHandle.of(Long.parseLong(sleeper)).map(ProcessHandle::isAlive).orElse(false))
                        .as("the background sleeper of the CLI").isFalse());
    }

    @Test
    void aCancelEndsTheTree() {
        RunRequested run = request("claude_local", Map.of("command", claude.toString()),
                "@spawn-sleeper 300\n@sleep 300", Map.of());
        bus.request(run);
        bus.await(run.runId(), RUNNING);

        bus.cancel(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        assertThat(end.status().name()).isEqualTo("CANCELLED");
        String sleeper = StandInOutput.parse(end.output()).after("sleeper-pid=");
        if (sleeper != null) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(ProcessHandle.of(Long.parseLong(sleeper)).map(ProcessHandle::isAlive).orElse(false))
                            .isFalse());
        }
    }

    private static RunRequested request(String type, Map<String, ?> config, String input, Map<String, String> plain) {
        UUID runId = UUID.randomUUID();
        EncryptionKey key = EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key",
                String.class));
        UUID agentId = UUID.randomUUID();
        return Runs.request(UUID.randomUUID(), runId, COMPANY, agentId, type,
                JSON.valueToTree(new HashMap<>(config)), null, input, Instant.now(),
                new DispatchSecrets(key.dispatchKey()).seal(COMPANY, agentId, runId, plain));
    }
}
