package io.trimus.adapter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Frame;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.support.CapturedLogs;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.Registrations;
import io.trimus.adapter.support.RunBus;
import io.trimus.adapter.support.StandInOutput;
import io.trimus.events.EgressCa;
import io.trimus.events.MaskScope;
import io.trimus.events.RunRequested;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.AgentCli;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.events.secrets.SandboxMask;
import io.trimus.events.secrets.SandboxMasks;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.trimus.events.RunState.FAILED;
import static io.trimus.events.RunState.REJECTED;
import static io.trimus.events.RunState.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Masked secrets on the real engine: the sandbox holds a fresh surrogate shaped like the key, never the value (its
 * environment as the engine reports it, as PID 1 and {@code env} see it, and its files); egress-service gets the
 * masks sealed for that run and address, again every TRIMUS_EGRESS_MASKS_REFRESH while the run lives; the egress CA is
 * mounted read-only at /etc/trimus with the TLS clients' variables pointing at it; output echoing the surrogate shows
 * {@code [MASKED:NAME]}. A run that could not keep the value out of its process (off the egress network, on the host,
 * on a remote worker) is refused, and a masked run without the CA fails.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class MaskedSecretsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID COMPANY = UUID.randomUUID();
    private static final Duration END = Duration.ofSeconds(60);
    private static final MaskScope GITHUB = new MaskScope("GITHUB_TOKEN", List.of("api.github.com", "*.github.com"),
            List.of("authorization"));
    /** Reports what the sandbox holds, then waits until the test has looked at it from outside. */
    private static final String INSPECT = String.join("; ",
            "echo \"sha=$(printf %s \"$GH_TOKEN\" | sha256sum | cut -d' ' -f1)\"",
            "echo \"token=$GH_TOKEN\"",
            "echo \"pid1=$(tr '\\0' '\\n' < /proc/1/environ | grep '^GH_TOKEN=')\"",
            "echo \"envcmd=$(env | grep '^GH_TOKEN=')\"",
            "echo \"ssl=$SSL_CERT_FILE node=$NODE_EXTRA_CA_CERTS curl=$CURL_CA_BUNDLE requests=$REQUESTS_CA_BUNDLE"
                    + " codex=$CODEX_CA_CERTIFICATE\"",
            "ls /etc/trimus/egress-ca.pem /etc/trimus/ca-bundle.pem && echo files=present",
            "(echo x >> /etc/trimus/egress-ca.pem) 2>/dev/null && echo write=ok || echo write=refused",
            "(touch /etc/trimus/new) 2>/dev/null && echo create=ok || echo create=refused",
            "while [ ! -e /tmp/done ]; do sleep 1; done");

    private final RunBus bus = RunBus.get();
    private final Registrations registrations = Registrations.ofApp();

    @Inject
    EnsureEgressNetwork egressNetwork;

    @AfterAll
    static void removeCompanyContainers() {
        Engine.removeCompanyContainers(COMPANY);
        Registrations.ofApp().caServed(true);
    }

    @Test
    void aDockerSandboxHoldsOnlyTheSurrogateWhileEgressServiceGetsTheSealedMaskAgainAndAgain() throws Exception {
        awaitEgressNetwork();
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "") + "Ab12";
        RunRequested run = request("docker", Map.of("image", TestImages.busybox(), "network",
                EgressTestResource.NETWORK, "command", List.of("sh", "-c", INSPECT),
                "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN")), null, Map.of("GH_TOKEN", token),
                Map.of("GH_TOKEN", GITHUB));
        bus.request(run);

        InspectContainerResponse container = Engine.awaitRunning(run.runId());
        String surrogate = envOf(container, "GH_TOKEN");
        assertThat(surrogate).as("the engine's view of the sandbox's env").isNotEqualTo(token)
                .hasSameSizeAs(token).startsWith("ghp_").matches("ghp_[A-Za-z0-9]{36}");
        assertThat(container.getConfig().getEnv()).noneMatch(e -> e.contains(token));
        assertThat(exec(container.getId(), "cat", "/proc/1/environ")).as("PID 1's environment, read inside")
                .contains("GH_TOKEN=" + surrogate).doesNotContain(token);
        assertThat(exec(container.getId(), "grep", "-rlF", token, "/etc", "/tmp", "/home")).as("files holding the value")
                .isBlank();
        assertThat(container.getConfig().getEnv()).contains("SSL_CERT_FILE=" + EgressCa.BUNDLE_FILE,
                "REQUESTS_CA_BUNDLE=" + EgressCa.BUNDLE_FILE, "CURL_CA_BUNDLE=" + EgressCa.BUNDLE_FILE,
                "CODEX_CA_CERTIFICATE=" + EgressCa.BUNDLE_FILE, "NODE_EXTRA_CA_CERTS=" + EgressCa.CA_FILE);
        assertThat(container.getHostConfig().getMounts()).anySatisfy(m -> {
            assertThat(m.getTarget()).isEqualTo(EgressCa.DIRECTORY);
            assertThat(m.getReadOnly()).isTrue();
        });
        String placedCa = exec(container.getId(), "cat", EgressCa.CA_FILE);
        String bundle = exec(container.getId(), "cat", EgressCa.BUNDLE_FILE);
        assertThat(base64Of(placedCa)).isEqualTo(base64Of(registrations.ca()));
        assertThat(bundle).startsWith(placedCa);
        assertThat(bundle.split("BEGIN CERTIFICATE", -1).length - 1).as("the CA and the JVM's roots")
                .isGreaterThan(10);

        Registrations.Request confirming = await().atMost(END).until(() -> registrations.putsOf(run.runId()).stream()
                .filter(p -> p.field("container_id") != null).findFirst(), java.util.Optional::isPresent).get();
        assertThat(confirming.containerState()).as("confirmed before start").isEqualTo("created");
        List<SandboxMask> masks = new SandboxMasks(key().dispatchKey()).open(run.runId(), confirming.ip(),
                confirming.field("masks"));
        assertThat(masks).containsExactly(new SandboxMask("GITHUB_TOKEN", surrogate, token, GITHUB.hosts(),
                GITHUB.headers()));
        assertThat(confirming.field("ca")).isEqualTo(sha256Hex(derOf(registrations.ca())));
        assertThat(confirming.body().toString()).doesNotContain(token).doesNotContain(surrogate);

        await().atMost(Duration.ofSeconds(20)).until(() -> confirmingPuts(run).size() >= 4);
        assertThat(confirmingPuts(run)).allSatisfy(put -> {
            assertThat(put.field("masks")).isEqualTo(confirming.field("masks"));
            assertThat(put.field("ca")).isEqualTo(confirming.field("ca"));
            assertThat(put.ip()).isEqualTo(confirming.ip());
        });

        exec(container.getId(), "touch", "/tmp/done");
        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        StandInOutput out = StandInOutput.parse(end.output());

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(out.after("sha=")).isEqualTo(sha256Hex(surrogate.getBytes(StandardCharsets.UTF_8)));
        assertThat(out.after("token=")).isEqualTo("[MASKED:GITHUB_TOKEN]");
        assertThat(out.after("pid1=")).isEqualTo("GH_TOKEN=[MASKED:GITHUB_TOKEN]");
        assertThat(out.after("envcmd=")).isEqualTo("GH_TOKEN=[MASKED:GITHUB_TOKEN]");
        assertThat(out.after("ssl=")).isEqualTo(EgressCa.BUNDLE_FILE + " node=" + EgressCa.CA_FILE + " curl="
                + EgressCa.BUNDLE_FILE + " requests=" + EgressCa.BUNDLE_FILE + " codex=" + EgressCa.BUNDLE_FILE);
        assertThat(out.lines()).contains("files=present", "write=refused", "create=refused");
        assertThat(end.output()).doesNotContain(token).doesNotContain(surrogate);

        await().atMost(END).until(() -> !registrations.deletesOf(confirming.ip()).stream()
                .filter(d -> run.runId().toString().equals(d.runId())).toList().isEmpty());
        Instant deregistered = registrations.deletesOf(confirming.ip()).stream()
                .filter(d -> run.runId().toString().equals(d.runId())).findFirst().orElseThrow().receivedAt();
        // three refresh periods (TRIMUS_EGRESS_MASKS_REFRESH of this app) without one
        Duration period = ConfigProvider.getConfig().getValue("trimus.egress.masks-refresh", Duration.class);
        await().during(period.multipliedBy(3)).atMost(period.multipliedBy(3).plusSeconds(2))
                .until(() -> confirmingPuts(run).stream().noneMatch(p -> p.receivedAt().isAfter(deregistered)));
    }

    @Test
    void aFailedRefreshIsLoggedWithoutValuesAndTriedAgainTheNextPeriod() throws Exception {
        awaitEgressNetwork();
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "") + "Cd34";
        RunRequested run = request("docker", Map.of("image", TestImages.busybox(), "network",
                EgressTestResource.NETWORK, "command", List.of("sh", "-c", "while [ ! -e /tmp/done ]; do sleep 1; done"),
                "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN")), null, Map.of("GH_TOKEN", token),
                Map.of("GH_TOKEN", GITHUB));
        try (CapturedLogs logs = CapturedLogs.install()) {
            bus.request(run);
            InspectContainerResponse container = Engine.awaitRunning(run.runId());
            String surrogate = envOf(container, "GH_TOKEN");
            await().atMost(END).until(() -> !confirmingPuts(run).isEmpty());

            registrations.answer(COMPANY, 500);
            try {
                int before = confirmingPuts(run).size();
                await().atMost(Duration.ofSeconds(20)).until(() -> confirmingPuts(run).size() >= before + 2);
                await().atMost(Duration.ofSeconds(5)).until(() -> logs.lines().stream().anyMatch(l ->
                        l.contains("could not refresh the registration") && l.contains(run.runId().toString())));
            } finally {
                registrations.answer(COMPANY, 204);
            }
            int recovered = confirmingPuts(run).size();
            await().atMost(Duration.ofSeconds(20)).until(() -> confirmingPuts(run).size() >= recovered + 1);
            assertThat(Engine.containerOf(run.runId())).as("a failed refresh does not end the run").isPresent();

            exec(container.getId(), "touch", "/tmp/done");
            assertThat(bus.awaitEnd(run.runId(), END).status()).isEqualTo(SUCCEEDED);
            assertThat(logs.lines()).noneMatch(l -> l.contains(token) || l.contains(surrogate)
                    || l.contains(confirmingPuts(run).get(0).field("masks")));
        }
    }

    @ParameterizedTest
    @EnumSource(value = AdapterType.class, names = {"CLAUDE_SANDBOX", "CODEX_SANDBOX"})
    void aCliSandboxsProviderKeyIsASurrogateAndItsOutputShowsTheSecretsName(AdapterType type) {
        awaitEgressNetwork();
        AgentCli cli = AgentCli.of(type);
        String keyVar = cli.apiKeyEnv();
        String key = (cli == AgentCli.CLAUDE ? "sk-ant-api03-" : "sk-proj-")
                + UUID.randomUUID().toString().replace("-", "") + "AbCdEfGh";
        String plain = "npm_" + UUID.randomUUID().toString().replace("-", "");
        MaskScope scope = new MaskScope("PROVIDER_KEY", List.of(cli.apiHost()), List.of());
        String script = "echo \"sha=$(printf %s \"$" + keyVar + "\" | sha256sum | cut -d' ' -f1)\";"
                + " echo \"pid1=$(tr '\\0' '\\n' < /proc/1/environ | grep '^" + keyVar + "=')\";"
                + " echo \"npm=$NPM_TOKEN\"";
        RunRequested run = request(type.wireName(), Map.of("image", TestImages.cliStandIn(Engine.docker()),
                        "api_key_secret", "PROVIDER_KEY", "secret_env", Map.of("NPM_TOKEN", "NPM_TOKEN")),
                "@sh " + script, Map.of(keyVar, key, "NPM_TOKEN", plain), Map.of(keyVar, scope));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);
        StandInOutput out = StandInOutput.parse(end.output());
        Registrations.Request confirming = confirmingPuts(run).get(0);
        SandboxMask mask = new SandboxMasks(key().dispatchKey()).open(run.runId(), confirming.ip(),
                confirming.field("masks")).get(0);

        assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
        assertThat(mask.name()).isEqualTo("PROVIDER_KEY");
        assertThat(mask.value()).isEqualTo(key);
        assertThat(mask.hosts()).containsExactly(cli.apiHost());
        assertThat(mask.headers()).isEqualTo(MaskScope.DEFAULT_HEADERS);
        assertThat(mask.surrogate()).isNotEqualTo(key).hasSameSizeAs(key)
                .startsWith(cli == AgentCli.CLAUDE ? "sk-ant-api03-" : "sk-proj-");
        assertThat(out.after("sha=")).as("the key the CLI sees is the surrogate")
                .isEqualTo(sha256Hex(mask.surrogate().getBytes(StandardCharsets.UTF_8)));
        assertThat(out.env()).containsEntry(keyVar, "[MASKED:PROVIDER_KEY]").containsEntry("NPM_TOKEN", "[REDACTED]")
                .containsEntry("SSL_CERT_FILE", EgressCa.BUNDLE_FILE)
                .containsEntry("NODE_EXTRA_CA_CERTS", EgressCa.CA_FILE);
        assertThat(out.after("pid1=")).isEqualTo(keyVar + "=[MASKED:PROVIDER_KEY]");
        assertThat(out.after("npm=")).isEqualTo("[REDACTED]");
        assertThat(end.output()).doesNotContain(key).doesNotContain(mask.surrogate()).doesNotContain(plain);
    }

    @Test
    void aMaskedDockerRunOffTheEgressNetworkIsRejected() {
        RunRequested run = request("docker", Map.of("image", TestImages.busybox(), "command", List.of("true"),
                "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN")), null, Map.of("GH_TOKEN", "ghp_" + UUID.randomUUID()),
                Map.of("GH_TOKEN", GITHUB));
        bus.request(run);

        RunStatusChanged end = bus.awaitEnd(run.runId(), END);

        assertThat(end.status()).isEqualTo(REJECTED);
        assertThat(end.error()).contains("masked secrets need the egress proxy").contains("only available on the"
                + " egress network " + EgressTestResource.NETWORK);
        assertThat(Engine.containerOf(run.runId())).isEmpty();
    }

    @Test
    void aHostProcessOrRemoteRunCarryingAMaskedSecretIsRejected() {
        RunRequested local = request("claude_local", Map.of(), "hello",
                Map.of("ANTHROPIC_API_KEY", "sk-ant-api03-" + UUID.randomUUID()),
                Map.of("ANTHROPIC_API_KEY", new MaskScope("ANTHROPIC_API_KEY", List.of("api.anthropic.com"), null)));
        RunRequested remote = request("remote", Map.of("worker_tag", "gpu", "adapter_type", "docker",
                        "adapter_config", Map.of("image", "busybox:1.36", "secret_env", Map.of("GH_TOKEN", "GITHUB_TOKEN"))),
                null, Map.of("GH_TOKEN", "ghp_" + UUID.randomUUID()), Map.of("GH_TOKEN", GITHUB));
        bus.request(local);
        bus.request(remote);

        for (RunRequested run : List.of(local, remote)) {
            RunStatusChanged end = bus.awaitEnd(run.runId(), END);
            assertThat(end.status()).as(run.adapterType()).isEqualTo(REJECTED);
            assertThat(end.error()).as(run.adapterType()).contains("masked secrets")
                    .contains("only a sandbox on the egress network can use");
        }
    }

    @Test
    void withoutTheCaAMaskedRunFailsAndAnUnmaskedSandboxStartsWithoutIt() {
        awaitEgressNetwork();
        registrations.caServed(false);
        try {
            RunRequested masked = request("docker", Map.of("image", TestImages.busybox(), "network",
                    EgressTestResource.NETWORK, "command", List.of("true"), "secret_env",
                    Map.of("GH_TOKEN", "GITHUB_TOKEN")), null, Map.of("GH_TOKEN", "ghp_" + UUID.randomUUID()),
                    Map.of("GH_TOKEN", GITHUB));
            bus.request(masked);
            RunStatusChanged failed = bus.awaitEnd(masked.runId(), END);

            assertThat(failed.status()).isEqualTo(FAILED);
            assertThat(failed.error()).contains("masked secrets need the egress CA")
                    .contains("egress-service has no CA key yet");
            assertThat(Engine.containerOf(masked.runId())).isEmpty();

            RunRequested plain = request("docker", Map.of("image", TestImages.busybox(), "network",
                    EgressTestResource.NETWORK, "command", List.of("sh", "-c",
                            "ls /etc/trimus 2>/dev/null && echo ca=present || echo ca=absent; echo \"ssl=$SSL_CERT_FILE\"")),
                    null, Map.of(), Map.of());
            bus.request(plain);
            RunStatusChanged end = bus.awaitEnd(plain.runId(), END);

            assertThat(end.status()).as(end.error()).isEqualTo(SUCCEEDED);
            assertThat(end.output()).contains("ca=absent").contains("ssl=\n");
        } finally {
            registrations.caServed(true);
        }
    }

    private void awaitEgressNetwork() {
        await().atMost(Duration.ofSeconds(60)).until(() -> egressNetwork.status().ready());
    }

    private List<Registrations.Request> confirmingPuts(RunRequested run) {
        return registrations.putsOf(run.runId()).stream().filter(p -> p.field("container_id") != null).toList();
    }

    private static String envOf(InspectContainerResponse container, String name) {
        return Arrays.stream(container.getConfig().getEnv()).filter(e -> e.startsWith(name + "="))
                .map(e -> e.substring(name.length() + 1)).findFirst().orElseThrow();
    }

    /** Runs a command in the container; returns stdout and stderr. */
    private static String exec(String containerId, String... command) throws InterruptedException {
        String id = Engine.docker().execCreateCmd(containerId).withCmd(command).withAttachStdout(true)
                .withAttachStderr(true).exec().getId();
        StringBuilder out = new StringBuilder();
        Engine.docker().execStartCmd(id).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                synchronized (out) {
                    out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                }
            }
        }).awaitCompletion(30, TimeUnit.SECONDS);
        synchronized (out) {
            return out.toString();
        }
    }

    private static String base64Of(String pem) {
        return pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    }

    private static byte[] derOf(String pem) {
        return java.util.Base64.getDecoder().decode(base64Of(pem));
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static EncryptionKey key() {
        return EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key", String.class));
    }

    /** A request as run-service publishes it: the secrets sealed under the key this app was given. */
    private static RunRequested request(String type, Map<String, ?> config, String input, Map<String, String> plain,
                                        Map<String, MaskScope> masked) {
        UUID runId = UUID.randomUUID();
        UUID agentId = UUID.randomUUID();
        return new RunRequested(UUID.randomUUID(), runId, COMPANY, agentId, type, JSON.valueToTree(config), null,
                input, Instant.now(), new DispatchSecrets(key().dispatchKey()).seal(COMPANY, agentId, runId, plain),
                null, masked);
    }
}
