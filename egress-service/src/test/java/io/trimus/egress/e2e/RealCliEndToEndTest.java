package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.proxy.TestPki;
import io.trimus.testing.DockerClients;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real Claude Code and Codex CLIs, from the images {@code ./trimus images} builds, run as a new user would run
 * them: through run-service's API, a company with {@code api.anthropic.com} and {@code api.openai.com} on its
 * allowlist, masked provider keys scoped to those hosts, one {@code claude_sandbox} and one {@code codex_sandbox} agent
 * with an empty {@code adapter_config}, one run each. The providers are {@link ProviderStandIn}s at their own names
 * (the test's upstream DNS points the names at this JVM; the proxy trusts the stand-ins' CA upstream), reached only
 * through the egress proxy. Both runs SUCCEED with the stand-in's answer as their output and the usage the CLI
 * reported; the stand-ins receive the real keys and nothing else; the containers' environment holds only surrogates;
 * no request of the CLIs is denied (no anomaly for the company). The hosts and paths each CLI used are printed (for
 * docs/adapters.md).
 * <p>
 * Not part of {@code ./trimus test}: it needs the CLI sandbox images, which come from the npm registry.
 * {@code ./trimus cli-e2e} builds them and runs this class (CI does, after the suite).
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class RealCliEndToEndTest {
    static final String CLAUDE_IMAGE = "trimus/claude-sandbox:latest";
    static final String CODEX_IMAGE = "trimus/codex-sandbox:latest";
    private static final String REAL_ANTHROPIC = "sk-ant-api03-" + SandboxRuns.randomAlphanumeric(93) + "-"
            + SandboxRuns.randomAlphanumeric(6) + "AA";
    private static final String REAL_OPENAI = "sk-proj-" + SandboxRuns.randomAlphanumeric(48);

    private static ProviderStandIn providers;
    private static TestUpstreamDns upstream;
    private static ServiceProcess runService;

    @TestHTTPResource("/")
    URI egressService;

    @BeforeAll
    static void start() throws Exception {
        DockerClient docker = DockerClients.local();
        for (String image : List.of(CLAUDE_IMAGE, CODEX_IMAGE)) {
            try {
                docker.inspectImageCmd(image).exec();
            } catch (NotFoundException missing) {
                throw new IllegalStateException(image + " is not on the Docker engine: build the CLI sandbox images"
                        + " first (./trimus images, or ./trimus cli-e2e, which builds them and runs this test)");
            }
        }
        EgressNetworkResource.ensureOutsideNetwork(docker);
        TestPki outsideCa = TestPki.open(Path.of(ConfigProvider.getConfig()
                .getValue(EgressNetworkResource.OUTSIDE_PKI_KEY, String.class)));
        providers = new ProviderStandIn(EgressNetworkResource.OUTSIDE_GATEWAY,
                outsideCa.leaf(ProviderStandIn.ANTHROPIC, ProviderStandIn.OPENAI));
        upstream = new TestUpstreamDns().a(ProviderStandIn.ANTHROPIC, EgressNetworkResource.OUTSIDE_GATEWAY)
                .a(ProviderStandIn.OPENAI, EgressNetworkResource.OUTSIDE_GATEWAY).startReserved();
        runService = SandboxRuns.runService(Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (runService != null) {
            runService.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (providers != null) {
            providers.close();
        }
    }

    @Test
    void claudeAndCodexWithEmptyConfigsAnswerThroughTheMaskingProxyWithTheRealKeys() throws Exception {
        SandboxRuns.sharedAdapter(egressService);
        String base = runService.baseUri().toString();
        String company = given().baseUri(base).contentType(ContentType.JSON).body(Map.of("name", "cli-e2e"))
                .post("/api/companies").then().statusCode(201).extract().path("id");
        SandboxRuns.allow(java.util.UUID.fromString(company), ProviderStandIn.ANTHROPIC, ProviderStandIn.OPENAI);
        maskedKey(base, company, "ANTHROPIC_API_KEY", REAL_ANTHROPIC, ProviderStandIn.ANTHROPIC);
        maskedKey(base, company, "OPENAI_API_KEY", REAL_OPENAI, ProviderStandIn.OPENAI);
        String claude = agent(base, company, "claude", "claude_sandbox");
        String codex = agent(base, company, "codex", "codex_sandbox");

        String claudeRun = run(base, company, claude);
        String codexRun = run(base, company, codex);

        // both CLIs reached their provider; their calls are held while the containers are looked at from outside
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(providers.seen()).as("model calls so far, runs: %s", List.of(
                                view(base, company, claudeRun).path("status").asText(),
                                view(base, company, codexRun).path("status").asText()))
                        .anyMatch(s -> s.isModelCall() && s.host().equals(ProviderStandIn.ANTHROPIC))
                        .anyMatch(s -> s.isModelCall() && s.host().equals(ProviderStandIn.OPENAI)));
        for (String run : List.of(claudeRun, codexRun)) {
            List<String> env = List.of(Objects.requireNonNull(DockerClients.local()
                    .inspectContainerCmd("trimus-run-" + run).exec().getConfig().getEnv()));
            assertThat(env).as("the container's environment").noneMatch(e -> e.contains(REAL_ANTHROPIC)
                    || e.contains(REAL_OPENAI));
        }
        providers.release();

        JsonNode claudeEnd = awaitEnd(base, company, claudeRun);
        JsonNode codexEnd = awaitEnd(base, company, codexRun);
        // the runs as the API shows them, for whoever reads a failure (CI keeps target/)
        java.nio.file.Files.createDirectories(Path.of("target", "cli-e2e"));
        java.nio.file.Files.writeString(Path.of("target", "cli-e2e", "claude-run.json"), claudeEnd.toPrettyString());
        java.nio.file.Files.writeString(Path.of("target", "cli-e2e", "codex-run.json"), codexEnd.toPrettyString());
        System.out.println("[cli-e2e] what the CLIs asked the providers for:");
        providers.seen().stream().map(s -> s + " (" + (s.credential().contains(REAL_ANTHROPIC)
                        || s.credential().contains(REAL_OPENAI) ? "real key" : "no key") + ")").distinct()
                .forEach(line -> System.out.println("[cli-e2e]   " + line));

        assertThat(claudeEnd.path("status").asText()).as(claudeEnd.toString()).isEqualTo("SUCCEEDED");
        assertThat(codexEnd.path("status").asText()).as(codexEnd.toString()).isEqualTo("SUCCEEDED");
        assertThat(claudeEnd.path("output").asText()).isEqualTo(ProviderStandIn.ANSWER_ANTHROPIC);
        assertThat(codexEnd.path("output").asText()).isEqualTo(ProviderStandIn.ANSWER_OPENAI);
        assertThat(claudeEnd.path("raw_output").asText()).contains("\"result\"");
        assertThat(codexEnd.path("raw_output").asText()).contains("turn.completed")
                .as("CODEX_HOME is writable and outside the temporary directory").doesNotContain("PATH aliases")
                .doesNotContain("Not inside a trusted directory");
        assertThat(claudeEnd.at("/usage/output_tokens").asLong()).isPositive();
        assertThat(claudeEnd.at("/usage/cost_usd").isNumber()).as(claudeEnd.toString()).isTrue();
        assertThat(claudeEnd.at("/usage/input_tokens").asLong()).isEqualTo(ProviderStandIn.INPUT_TOKENS);
        assertThat(claudeEnd.at("/usage/cache_read_tokens").asLong()).isEqualTo(ProviderStandIn.CACHED_TOKENS);
        assertThat(claudeEnd.at("/usage/model").asText()).as("Claude Code names the model it used").isNotBlank();
        assertThat(codexEnd.at("/usage/input_tokens").asLong()).as("OpenAI counts cached input inside input_tokens;"
                + " Trimus apart, as for Claude").isEqualTo(ProviderStandIn.INPUT_TOKENS - ProviderStandIn.CACHED_TOKENS);
        assertThat(codexEnd.at("/usage/cache_read_tokens").asLong()).isEqualTo(ProviderStandIn.CACHED_TOKENS);
        assertThat(codexEnd.at("/usage/output_tokens").asLong()).isEqualTo(ProviderStandIn.OUTPUT_TOKENS);
        assertThat(codexEnd.path("usage").has("cost_usd")).as("Codex states no cost: none is invented").isFalse();
        assertThat(claudeEnd.path("usage").has("empty")).isFalse();

        List<ProviderStandIn.Seen> calls = providers.seen();
        assertThat(calls).as("only the providers' own hosts").allMatch(s -> s.host().equals(ProviderStandIn.ANTHROPIC)
                || s.host().equals(ProviderStandIn.OPENAI));
        assertThat(calls).filteredOn(ProviderStandIn.Seen::isModelCall).as("every model call carried the real key")
                .allMatch(s -> s.credential().equals("x-api-key " + REAL_ANTHROPIC)
                        || s.credential().equals("Bearer " + REAL_OPENAI));
        assertThat(calls).as("nothing but a real key or no key at all reached the providers")
                .allMatch(s -> s.credential().equals("null") || s.credential().contains(REAL_ANTHROPIC)
                        || s.credential().contains(REAL_OPENAI));
        assertThat(calls).filteredOn(s -> s.host().equals(ProviderStandIn.OPENAI))
                .as("Codex speaks HTTPS, never a WebSocket upgrade").noneMatch(s -> s.method().equals("GET")
                        && s.path().startsWith("/v1/responses"));
        assertThat(SandboxRuns.anomalies(java.util.UUID.fromString(company), null))
                .as("no request of either CLI was denied").isEmpty();
    }

    private static void maskedKey(String base, String company, String name, String value, String host) {
        given().baseUri(base).contentType(ContentType.JSON)
                .body(Map.of("value", value, "masked", true, "hosts", List.of(host)))
                .put("/api/companies/{c}/secrets/{n}", company, name).then().statusCode(201);
    }

    private static String agent(String base, String company, String name, String type) {
        return given().baseUri(base).contentType(ContentType.JSON)
                .body(Map.of("name", name, "adapter_type", type, "adapter_config", Map.of()))
                .post("/api/companies/{c}/agents", company).then().statusCode(201).extract().path("id");
    }

    private static String run(String base, String company, String agent) {
        return given().baseUri(base).contentType(ContentType.JSON)
                .body(Map.of("input", "Say hello in one sentence. Do not run any tools."))
                .post("/api/companies/{c}/agents/{a}/runs", company, agent).then().statusCode(202).extract()
                .path("id");
    }

    private static JsonNode view(String base, String company, String run) throws Exception {
        return SandboxRuns.JSON.readTree(given().baseUri(base).get("/api/companies/{c}/runs/{r}", company, run)
                .then().statusCode(200).extract().asString());
    }

    private static JsonNode awaitEnd(String base, String company, String run) {
        List<JsonNode> last = new ArrayList<>(List.of(SandboxRuns.JSON.nullNode()));
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> {
            last.set(0, view(base, company, run));
            return switch (last.get(0).path("status").asText()) {
                case "SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED" -> true;
                default -> false;
            };
        });
        return last.get(0);
    }
}
