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
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An agent's {@code secret_env} on the real engine: the variable inside the started container holds the company
 * secret's value (its SHA-256, computed in the container, matches), and output that echoes it shows
 * {@code [REDACTED]}, never the value, for a docker agent and for a claude_sandbox one.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class SecretEnvTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(60);
    /** Prints the variable's SHA-256 and then the variable itself. */
    private static final String ECHO = "echo \"sha=$(printf %s \"$GH_TOKEN\" | sha256sum | cut -d' ' -f1)\";"
            + " echo \"token=$GH_TOKEN\"";

    private final RunBus bus = RunBus.get();

    @Inject
    EnsureEgressNetwork egressNetwork;

    @AfterAll
    static void removeCompanyContainers() {
        Engine.removeCompanyContainers(COMPANY);
    }

    @Test
    void aDockerAgentsContainerHoldsTheSecretAndItsOutputShowsItRedacted() {
        String token = token();
        RunRequested run = request("docker", Map.of("image", TestImages.busybox(), "command", List.of("sh", "-c", ECHO),
                "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN")), null, Map.of("GH_TOKEN", token));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(end.output()).contains("sha=" + sha256(token)).contains("token=[REDACTED]")
                .doesNotContain(token);
    }

    @Test
    void aClaudeSandboxHoldsTheSecretBesideItsProviderKeyAndItsOutputShowsBothRedacted() {
        await().atMost(Duration.ofSeconds(60)).until(() -> egressNetwork.status().ready());
        String token = token();
        String apiKey = "sk-ant-test-" + UUID.randomUUID();
        RunRequested run = request("claude_sandbox", Map.of("image", TestImages.cliStandIn(Engine.docker()),
                        "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN")), "@sh " + ECHO,
                Map.of("ANTHROPIC_API_KEY", apiKey, "GH_TOKEN", token));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        StandInOutput out = StandInOutput.parse(end.output());

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(out.after("sha=")).isEqualTo(sha256(token));
        assertThat(out.after("token=")).isEqualTo("[REDACTED]");
        assertThat(out.env()).containsEntry("GH_TOKEN", "[REDACTED]").containsEntry("ANTHROPIC_API_KEY", "[REDACTED]");
        assertThat(end.output()).doesNotContain(token).doesNotContain(apiKey);
    }

    @Test
    void aRunWithoutOneOfItsSecretEnvVariablesIsRejectedBeforeAnythingStarts() {
        RunRequested run = request("docker", Map.of("image", TestImages.busybox(), "command", List.of("true"),
                "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN", "NPM_TOKEN", "NPM_TOKEN")), null,
                Map.of("GH_TOKEN", token()));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).contains("NPM_TOKEN");
    }

    private static String token() {
        return "ghp_" + UUID.randomUUID().toString().replace("-", "");
    }

    private static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A request as run-service publishes it: the secrets sealed under the key this app was given. */
    private static RunRequested request(String type, Map<String, ?> config, String input, Map<String, String> plain) {
        UUID runId = UUID.randomUUID();
        UUID agentId = UUID.randomUUID();
        EncryptionKey key = EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key",
                String.class));
        return Runs.request(UUID.randomUUID(), runId, COMPANY, agentId, type, JSON.valueToTree(config), null,
                input, Instant.now(), new DispatchSecrets(key.dispatchKey()).seal(COMPANY, agentId, runId, plain));
    }
}
