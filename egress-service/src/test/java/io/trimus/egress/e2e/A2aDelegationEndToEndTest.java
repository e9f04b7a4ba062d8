package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.trimus.testing.RunServiceResource;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One Trimus delegating to another over A2A with nothing but a remote agent (issue 19), on real processes: run-service
 * (which serves company B's published docker agents over A2A) and the adapter service (which runs company A's remote
 * agents by calling that A2A endpoint on loopback, allowed by TRIMUS_A2A_ALLOW_PRIVATE), on the real broker, database
 * and Docker engine. A's run and the peer run it started in B both end SUCCEEDED with the same output; cancelling A's
 * run cancels B's; B's failure ends A's run FAILED with B's reason; and the token B gave A never shows in A's run.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = RunServiceResource.class, scope = TestResourceScope.GLOBAL)
class A2aDelegationEndToEndTest {
    private static final Set<String> FINAL = Set.of("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED");

    private static ServiceProcess adapter;

    @TestHTTPResource("/")
    URI egressService;


    /** Company B's side: three published docker agents, and a token B hands to A. */
    private record Peer(String company, String token, String echo, String sleeper, String failing) {
    }

    @Test
    void companyADelegatesToCompanyBsPublishedAgentOverA2a() throws Exception {
        ensureAdapter();
        Peer peer = peer();
        String caller = company("A2A caller " + UUID.randomUUID());
        api().contentType(ContentType.JSON).body(Map.of("value", "Bearer " + peer.token))
                .put("/api/companies/{c}/secrets/PEER_TOKEN", caller).then().statusCode(201);

        // delegated, and both runs end SUCCEEDED with the same output
        String echo = remoteAgent(caller, "delegate-echo", publish(peer.company, peer.echo));
        String run = startRun(caller, echo, "hello over a2a");
        JsonNode ours = awaitFinal(caller, run);
        assertThat(ours.path("status").asText()).as(ours.toString()).isEqualTo("SUCCEEDED");
        String peerRun = peerTask(ours);
        assertThat(peerRun).as(ours.toString()).isNotBlank();
        JsonNode theirs = awaitFinal(peer.company, peerRun);
        assertThat(theirs.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(theirs.path("agent_id").asText()).isEqualTo(peer.echo);
        assertThat(theirs.path("output").asText()).contains("peer got: hello over a2a");
        assertThat(ours.path("output").asText().strip()).isEqualTo(theirs.path("output").asText().strip());
        assertThat(ours.toString()).doesNotContain(peer.token);

        // a cancel on the caller cancels the peer's run
        String sleeper = remoteAgent(caller, "delegate-sleeper", publish(peer.company, peer.sleeper));
        String long_ = startRun(caller, sleeper, "take your time");
        String peerLong = await().atMost(Duration.ofSeconds(90)).until(() -> peerTask(view(caller, long_)),
                id -> !id.isEmpty());
        await().atMost(Duration.ofSeconds(90)).until(() -> view(peer.company, peerLong).path("status").asText(),
                "RUNNING"::equals);
        api().post("/api/companies/{c}/runs/{r}/cancel", caller, long_).then().statusCode(202);
        assertThat(awaitFinal(caller, long_).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(awaitFinal(peer.company, peerLong).path("status").asText()).isEqualTo("CANCELLED");

        // the peer's failure ends the caller's run FAILED with the peer's reason
        String failing = remoteAgent(caller, "delegate-failing", publish(peer.company, peer.failing));
        String broken = startRun(caller, failing, "break");
        JsonNode failed = awaitFinal(caller, broken);
        JsonNode peerFailed = awaitFinal(peer.company, peerTask(failed));
        assertThat(peerFailed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("status").asText()).as(failed.toString()).isEqualTo("FAILED");
        assertThat(failed.path("error").asText()).contains(peerFailed.path("error").asText());

        assertThat(Files.readString(adapter.logFile())).doesNotContain(peer.token);
    }

    private void ensureAdapter() {
        if (adapter == null) {
            adapter = SandboxRuns.sharedAdapter(egressService);
        }
    }

    private Peer peer() {
        String company = company("A2A peer " + UUID.randomUUID());
        String token = api().contentType(ContentType.JSON).body(Map.of("name", "for company A", "role", "member"))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract().path("token");
        return new Peer(company, token,
                dockerAgent(company, "echo", "echo \"peer got: $TRIMUS_INPUT\""),
                dockerAgent(company, "sleeper", "echo started; sleep 300"),
                dockerAgent(company, "failing", "echo 'cannot do that' >&2; exit 3"));
    }

    private static String company(String name) {
        return api().contentType(ContentType.JSON).body(Map.of("name", name)).post("/api/companies")
                .then().statusCode(201).extract().path("id");
    }

    private static String dockerAgent(String company, String name, String script) {
        return api().contentType(ContentType.JSON).body(Map.of("name", name, "adapter_type", "docker",
                        "adapter_config", Map.of("image", TestImages.busybox(), "network", EgressNetworkResource.NETWORK,
                                "timeout_sec", 300, "command", List.of("/bin/sh", "-c", script))))
                .post("/api/companies/{c}/agents", company).then().statusCode(201).extract().path("id");
    }

    /** Publishes the agent over A2A; returns its A2A url. */
    private static String publish(String company, String agent) {
        String url = api().contentType(ContentType.JSON).body(Map.of("published", true))
                .put("/api/companies/{c}/agents/{a}/a2a", company, agent).then().statusCode(200)
                .extract().path("url");
        assertThat(url).endsWith("/a2a/companies/" + company + "/agents/" + agent);
        return url;
    }

    private static String remoteAgent(String company, String name, String peerUrl) {
        return api().contentType(ContentType.JSON).body(Map.of("name", name, "adapter_type", "remote",
                        "adapter_config", Map.of("a2a", Map.of("url", peerUrl, "timeout_ms", 240_000,
                                "auth_header", Map.of("name", "Authorization", "secret", "PEER_TOKEN")))))
                .post("/api/companies/{c}/agents", company).then().statusCode(201).extract().path("id");
    }

    private static String startRun(String company, String agent, String input) {
        return api().contentType(ContentType.JSON).body(Map.of("input", input))
                .post("/api/companies/{c}/agents/{a}/runs", company, agent).then().statusCode(202)
                .extract().path("id");
    }

    private static JsonNode awaitFinal(String company, String run) {
        return await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                .until(() -> view(company, run), view -> FINAL.contains(view.path("status").asText()));
    }

    /** The A2A peer's task a run was delegated to, "" until it is known. */
    private static String peerTask(JsonNode run) {
        return run.hasNonNull("peer_task_id") ? run.get("peer_task_id").asText() : "";
    }

    private static JsonNode view(String company, String run) throws Exception {
        return SandboxRuns.JSON.readTree(api().get("/api/companies/{c}/runs/{r}", company, run).then()
                .statusCode(200).extract().asString());
    }

    private static RequestSpecification api() {
        return given().baseUri(ConfigProvider.getConfig().getValue(RunServiceResource.URL_KEY, String.class)).header("Authorization", TestOperator.HEADER);
    }
}
