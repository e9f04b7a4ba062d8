package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.events.adapter.AdapterType;
import io.trimus.run.config.TrimusConfigs;
import io.trimus.run.service.agent.EgressAllowlists;
import io.trimus.run.service.agent.ProviderReach;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static io.trimus.testing.Problems.assertInvalidField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

/**
 * Creating a claude_sandbox / codex_sandbox agent whose provider's API host is not on the company's egress allowlist
 * (read from egress-service over HTTP; here a stand-in answering as its AllowlistResource does) still answers 201,
 * with a warning; when the allowlist cannot be read the warning says so and the agent is created all the same. And
 * an agent's env cannot name the proxy variables Trimus sets on the egress network.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
// GLOBAL, not restricted to this class: a class-only resource costs two Quarkus restarts (into this class and out of
// it); the other classes' sandbox agents then ask the stand-in too (answer [] unless a test set one for the company)
@WithTestResource(value = AllowlistStandIn.class, scope = TestResourceScope.GLOBAL)
class ProviderWarningTest {
    private static final String ANTHROPIC_MISSING = "api.anthropic.com is not on this company's egress allowlist:"
            + " the agent cannot reach its provider";

    @Test
    void aClaudeSandboxWhoseProviderIsNotAllowListedIsCreatedWithAWarning() {
        String company = Api.createCompany("Warned Inc");
        allowlist(company, "[\"*.github.com\",\"api.anthropic.com:8443\"]");

        String id = Api.postAgent(company, sandbox("claude_sandbox")).statusCode(201)
                .body("warnings", contains(ANTHROPIC_MISSING)).extract().path("id");

        given().get("/api/companies/{c}/agents/{a}", company, id).then().statusCode(200)
                .body("adapter_type", equalTo("claude_sandbox")).body("$", not(hasKey("warnings")));
    }

    @Test
    void aClaudeSandboxWhoseProviderIsAllowListedHasNoWarning() {
        for (String entries : List.of("[\"api.anthropic.com\"]", "[\"*.anthropic.com\"]", "[\"API.Anthropic.com:443\"]")) {
            String company = Api.createCompany("Listed Inc");
            allowlist(company, entries);
            Api.postAgent(company, sandbox("claude_sandbox")).statusCode(201).body("warnings", empty());
        }
    }

    @Test
    void anObjectEntryWithRequestRulesCountsByItsHostAndPorts() {
        String listed = Api.createCompany("Ruled Inc");
        allowlist(listed, "[\"pypi.org\",{\"host\":\"api.anthropic.com\",\"ports\":[443],"
                + "\"methods\":[\"POST\"],\"paths\":[\"/v1/\"]}]");
        Api.postAgent(listed, sandbox("claude_sandbox")).statusCode(201).body("warnings", empty());

        String otherPort = Api.createCompany("Ruled Elsewhere Inc");
        allowlist(otherPort, "[{\"host\":\"api.anthropic.com\",\"ports\":[8443]}]");
        Api.postAgent(otherPort, sandbox("claude_sandbox")).statusCode(201).body("warnings",
                contains(ANTHROPIC_MISSING));
    }

    @Test
    void aCodexSandboxNeedsApiOpenaiCom() {
        String company = Api.createCompany("Codex Inc");
        allowlist(company, "[\"api.anthropic.com\"]");
        Api.postAgent(company, sandbox("codex_sandbox")).statusCode(201).body("warnings",
                contains("api.openai.com is not on this company's egress allowlist: the agent cannot reach its"
                        + " provider"));

        String listed = Api.createCompany("Codex Listed Inc");
        allowlist(listed, "[\"api.openai.com\"]");
        Api.postAgent(listed, sandbox("codex_sandbox")).statusCode(201).body("warnings", empty());
    }

    @Test
    void whenEgressServiceFailsTheAgentIsCreatedAndTheWarningSaysTheAllowlistWasNotChecked() {
        String company = Api.createCompany("Unchecked Inc");
        allowlist(company, "500");
        Api.postAgent(company, sandbox("claude_sandbox")).statusCode(201).body("warnings", contains(
                "the company's egress allowlist could not be checked (" + standIn() + " answered HTTP 500): unless"
                        + " api.anthropic.com is on it, the agent cannot reach its provider"));

        allowlist(company, "hang");
        long started = System.nanoTime();
        Api.postAgent(company, sandbox("claude_sandbox")).statusCode(201).body("warnings", contains(
                "the company's egress allowlist could not be checked (" + standIn() + " did not answer within 1 s):"
                        + " unless api.anthropic.com is on it, the agent cannot reach its provider"));
        assertThat((System.nanoTime() - started) / 1_000_000).as("bounded by TRIMUS_EGRESS_ALLOWLIST_TIMEOUT")
                .isLessThan(4_000);
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(2));
    }

    @Test
    void anUnreachableEgressServiceIsAWarningNotAFailure() {
        // the same service, told of an egress-service nobody listens on
        EgressAllowlists unreachable = new EgressAllowlists(TrimusConfigs.with("trimus.egress.service-url",
                "http://127.0.0.1:" + freePort(), "trimus.egress.allowlist-timeout", "1s"));
        assertThat(new ProviderReach(unreachable).warnings(UUID.randomUUID(), AdapterType.CLAUDE_SANDBOX, null)
                .await().atMost(Duration.ofSeconds(5)))
                .singleElement().asString().startsWith("the company's egress allowlist could not be checked"
                        + " (http://127.0.0.1:").contains("unreachable: connection refused");
    }

    @Test
    void otherAgentsAreNotCheckedAndCarryNoWarning() {
        String company = Api.createCompany("Docker Inc");
        int before = calls();
        Api.postAgent(company, Map.of("name", "d", "adapter_type", "docker", "adapter_config",
                Map.of("image", "busybox"))).statusCode(201).body("warnings", empty());
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void anAgentEnvNamingAProxyVariableIsA400NamingIt() {
        String company = Api.createCompany("Proxy Bypass Inc");
        for (String name : List.of("HTTPS_PROXY", "http_proxy", "No_Proxy", "NO_PROXY")) {
            assertInvalidField(Api.postAgent(company, Map.of("name", "d", "adapter_type", "docker",
                    "adapter_config", Map.of("image", "busybox", "network", "trimus-egress-allowlist",
                            "env", Map.of(name, "http://elsewhere.test:8080")))), "adapter_config.env." + name)
                    .body("detail", equalTo("adapter_config.env." + name + " is set by Trimus: containers on the"
                            + " egress network reach the internet only through the Trimus egress proxy"));
        }
        assertInvalidField(Api.postAgent(company, Map.of("name", "r", "adapter_type", "remote", "adapter_config",
                Map.of("worker_tag", "gpu", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "busybox", "env", Map.of("HTTPS_PROXY", "http://x.test:1"))))),
                "adapter_config.adapter_config.env.HTTPS_PROXY");
        given().get("/api/companies/{c}/agents", company).then().statusCode(200).body("$", hasSize(0));
    }

    private static Map<String, Object> sandbox(String type) {
        return Map.of("name", "cli", "adapter_type", type, "adapter_config", Map.of());
    }

    private static String standIn() {
        return ConfigProvider.getConfig().getValue(AllowlistStandIn.URL_KEY, String.class);
    }

    private static void allowlist(String company, String answer) {
        send(HttpRequest.newBuilder(URI.create(standIn() + "/_test/allowlist/" + company))
                .PUT(HttpRequest.BodyPublishers.ofString(answer)).build());
    }

    private static int calls() {
        return Integer.parseInt(send(HttpRequest.newBuilder(URI.create(standIn() + "/_test/calls")).GET().build()));
    }

    private static String send(HttpRequest request) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(request,
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode() / 100).isEqualTo(2);
            return response.body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
