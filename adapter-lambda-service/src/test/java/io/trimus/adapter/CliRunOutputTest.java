package io.trimus.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.Runs;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.RunUsage;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.Redactor;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static io.trimus.events.RunState.SUCCEEDED;
import static io.trimus.events.RunState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a CLI run reports on the real engine, with the stand-in CLI printing the vendors' JSON: the answer as output,
 * what it printed as raw_output, its usage; a docker run printing the same JSON reports it as it is.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class CliRunOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final String API_KEY = "sk-ant-test-" + UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(60);
    /** The key as a JSON string escape writes it: no redactor finds it in the printed text. */
    private static final String ESCAPED_KEY = API_KEY.chars().mapToObj(c -> String.format("\\u%04x", c))
            .collect(Collectors.joining());
    private static final String RESULT = "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
            + "\"duration_ms\":5012,\"duration_api_ms\":4100,\"num_turns\":2,"
            + "\"result\":\"Fixed the form. key=" + ESCAPED_KEY + "\",\"total_cost_usd\":0.0123,"
            + "\"usage\":{\"input_tokens\":1200,\"cache_creation_input_tokens\":300,\"cache_read_input_tokens\":900,"
            + "\"output_tokens\":80},\"modelUsage\":{\"claude-sonnet-4-5\":{\"inputTokens\":1200,"
            + "\"outputTokens\":80,\"costUSD\":0.0123}}}";
    private static final RunUsage USAGE = new RunUsage(1200L, 80L, 900L, 300L, null, new BigDecimal("0.0123"),
            "claude-sonnet-4-5", 4100L, 2);
    private static String image;

    private final RunBus bus = RunBus.get();

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
    void removeThisTestsContainers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    @AfterAll
    static void removeCompanyContainers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    @Test
    void aClaudeSandboxRunReportsTheAnswerMaskedTheJsonAsRawOutputAndItsUsage() {
        RunRequested run = request("claude_sandbox", Map.of("image", image), "@result " + RESULT,
                Map.of("ANTHROPIC_API_KEY", API_KEY));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).as("the answer, the key unescaped and masked")
                .isEqualTo("Fixed the form. key=" + Redactor.MARK);
        assertThat(end.rawOutput()).startsWith("standin=claude\n").endsWith("\n" + RESULT + "\n")
                .contains("env:ANTHROPIC_API_KEY=[REDACTED]").doesNotContain(API_KEY);
        assertThat(end.usage()).isEqualTo(USAGE);
    }

    @Test
    void aTimedOutRunReportsTheAnswerItHadPrinted() {
        RunRequested run = request("claude_sandbox", Map.of("image", image, "timeout_sec", 3),
                "@sh printf '%s\\n' '" + RESULT + "'\n@sleep 120", Map.of("ANTHROPIC_API_KEY", API_KEY));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(TIMED_OUT);
        assertThat(end.output()).isEqualTo("Fixed the form. key=" + Redactor.MARK);
        assertThat(end.rawOutput()).contains(RESULT);
        assertThat(end.usage()).isEqualTo(USAGE);
    }

    @Test
    void aCodexSandboxRunReportsItsLastAgentMessageAndTheModelItWasGiven() {
        String message = "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":\"agent_message\","
                + "\"text\":\"Refactored.\"}}";
        String turn = "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":2000,\"cached_input_tokens\":1500,"
                + "\"output_tokens\":40,\"reasoning_output_tokens\":12}}";
        RunRequested run = request("codex_sandbox", Map.of("image", image, "model", "gpt-5-codex"),
                "@sh printf '%s\\n' '" + message + "'\n@result " + turn, Map.of("OPENAI_API_KEY", API_KEY));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo("Refactored.");
        assertThat(end.rawOutput()).contains(message).endsWith(turn + "\n");
        assertThat(end.usage()).isEqualTo(new RunUsage(500L, 40L, 1500L, null, 12L, null, "gpt-5-codex", null, 1));
    }

    @Test
    void aDockerRunPrintingTheSameJsonKeepsItAsOutputWithNoUsage() {
        RunRequested run = Runs.docker(COMPANY, Map.of("image", Engine.busybox(), "command",
                List.of("printf", "%s\\n", RESULT)));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).isEqualTo(RESULT + "\n");
        assertThat(end.rawOutput()).isNull();
        assertThat(end.usage()).isNull();
    }

    /** A request as run-service publishes it: the secrets sealed under the key this app was given. */
    private static RunRequested request(String type, Map<String, ?> config, String input, Map<String, String> plain) {
        UUID runId = UUID.randomUUID();
        UUID agentId = UUID.randomUUID();
        EncryptionKey key = EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key",
                String.class));
        return Runs.request(UUID.randomUUID(), runId, COMPANY, agentId, type, JSON.valueToTree(config), null, input,
                Instant.now(), new DispatchSecrets(key.dispatchKey()).seal(COMPANY, agentId, runId, plain));
    }
}
