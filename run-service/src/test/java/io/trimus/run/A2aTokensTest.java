package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * An A2A-only token, the one a company hands another company for its published agent: it calls the A2A endpoint of
 * the agents it names and nothing else of the company (no REST endpoint, not {@code /api/me}, no other agent, no other
 * company), acts as a member, is made only as the rules say (a member, 1 to 20 of the company's own agents), is
 * audited, and stops at once when revoked.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class A2aTokensTest {

    private static String send(String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":{\"kind\":"
                + "\"message\",\"role\":\"user\",\"messageId\":\"" + UUID.randomUUID() + "\",\"parts\":[{\"kind\":"
                + "\"text\",\"text\":\"" + text + "\"}]}}}";
    }

    private static io.restassured.response.ValidatableResponse a2a(String url, String token, String body) {
        return given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON).body(body)
                .post(url).then();
    }

    @Test
    void anA2aTokenCallsTheAgentsItNamesAndNothingElse() {
        A2aServerTest.Published agent = A2aServerTest.published();
        A2aServerTest.Published sibling = A2aServerTest.published();
        String siblingInSameCompany = Api.createDockerAgent(agent.company(), Map.of("image",
                "trimus-test/busybox:latest", "command", List.of("cat")));
        String siblingUrl = given().contentType(ContentType.JSON).body(Map.of("published", true))
                .put("/api/companies/{c}/agents/{a}/a2a", agent.company(), siblingInSameCompany).then()
                .statusCode(200).body("token_hint", containsString("\"a2a_agents\": [\"" + siblingInSameCompany))
                .extract().path("url");
        var created = given().contentType(ContentType.JSON)
                .body(Map.of("name", "partner", "a2a_agents", List.of(agent.agent())))
                .post("/api/companies/{c}/tokens", agent.company()).then().statusCode(201)
                .body("role", equalTo("member")).body("a2a_agents", equalTo(List.of(agent.agent()))).extract();
        String token = created.path("token");

        String task = a2a(agent.url(), token, send("from a partner")).statusCode(200)
                .body("result.status.state", equalTo("submitted")).extract().path("result.id");
        Api.getRun(agent.company(), task).statusCode(200).body("agent_id", equalTo(agent.agent()));

        a2a(siblingUrl, token, send("not mine")).statusCode(403)
                .body("detail", containsString("does not name agent " + siblingInSameCompany));
        a2a(sibling.url(), token, send("another company")).statusCode(404);
        for (String path : List.of("/api/me", "/api/companies/" + agent.company() + "/runs",
                "/api/companies/" + agent.company() + "/agents", "/api/companies/" + agent.company() + "/runs/" + task,
                "/api/companies/" + agent.company() + "/agents/" + agent.agent() + "/a2a")) {
            given().header("Authorization", "Bearer " + token).get(path).then().statusCode(403)
                    .body("detail", containsString("A2A-only"));
        }
        given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body(Map.of("input", "by REST")).post("/api/companies/{c}/agents/{a}/runs", agent.company(),
                        agent.agent()).then().statusCode(403);
        given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body(Map.of("name", "escalate", "role", "admin"))
                .post("/api/companies/{c}/tokens", agent.company()).then().statusCode(403);
        assertThat(Db.texts("select count(*)::text from run.run where agent_id = ?::uuid", agent.agent()))
                .containsExactly("1");

        given().get("/api/companies/{c}/tokens", agent.company()).then().statusCode(200)
                .body("tokens.find { it.name == 'partner' }.a2a_agents", equalTo(List.of(agent.agent())));
        given().queryParam("company_id", agent.company()).get("/api/audit").then().statusCode(200)
                .body("records.findAll { it.action == 'token.created' }.details.a2a_agents", hasItem(agent.agent()));

        given().delete("/api/companies/{c}/tokens/{t}", agent.company(), created.path("id")).then().statusCode(204);
        a2a(agent.url(), token, send("after revocation")).statusCode(401);
    }

    /**
     * Two partners hold A2A-only tokens for the same agent: each sees, follows and cancels only the tasks it started.
     * The same messageId from the other partner starts a run of its own (it used to answer the first partner's task,
     * its output included), and a task of the other partner, or a run the company started through the REST API, is
     * "task not found" to it, exactly like a task that does not exist. A member of the company still sees them all.
     */
    @Test
    void aPartnersTokenSeesOnlyTheTasksItStartedItself() {
        A2aServerTest.Published agent = A2aServerTest.published();
        String first = partnerToken(agent, "partner-1");
        String second = partnerToken(agent, "partner-2");
        String sameMessage = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
                + "{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"msg-1\",\"parts\":[{\"kind\":\"text\","
                + "\"text\":\"secret plan\"}]}}}";
        String firstTask = a2a(agent.url(), first, sameMessage).statusCode(200).extract().path("result.id");
        String secondTask = a2a(agent.url(), second, sameMessage).statusCode(200)
                .body("result.history", org.hamcrest.Matchers.hasSize(1)).extract().path("result.id");
        assertThat(secondTask).as("the other partner's messageId starts its own run").isNotEqualTo(firstTask);
        assertThat(a2a(agent.url(), first, sameMessage).statusCode(200).extract().<String>path("result.id"))
                .as("the same partner's repeat still answers its run").isEqualTo(firstTask);
        String byRest = given().contentType(ContentType.JSON).body(Map.of("input", "internal"))
                .post("/api/companies/{c}/agents/{a}/runs", agent.company(), agent.agent()).then().statusCode(202)
                .extract().path("id");

        for (String foreign : List.of(firstTask, byRest)) {
            for (String method : List.of("tasks/get", "tasks/cancel")) {
                a2a(agent.url(), second, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method
                        + "\",\"params\":{\"id\":\"" + foreign + "\"}}").statusCode(200)
                        .body("error.code", equalTo(-32001)).body("result", equalTo(null));
            }
            String resubscribe = given().header("Authorization", "Bearer " + second).contentType(ContentType.JSON)
                    .body("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\""
                            + foreign + "\"}}").post(agent.url()).then().statusCode(200).extract().asString();
            assertThat(resubscribe).contains("-32001").doesNotContain("secret plan").doesNotContain("internal");
        }
        Api.getRun(agent.company(), firstTask).statusCode(200).body("status", equalTo("QUEUED"));
        a2a(agent.url(), second, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tasks/get\",\"params\":{\"id\":\""
                + secondTask + "\"}}").statusCode(200).body("result.id", equalTo(secondTask));
        a2a(agent.url(), agent.member(), "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tasks/get\",\"params\":{"
                + "\"id\":\"" + firstTask + "\"}}").statusCode(200).body("result.id", equalTo(firstTask));
    }

    private static String partnerToken(A2aServerTest.Published agent, String name) {
        return given().contentType(ContentType.JSON).body(Map.of("name", name, "a2a_agents", List.of(agent.agent())))
                .post("/api/companies/{c}/tokens", agent.company()).then().statusCode(201).extract().path("token");
    }

    @Test
    void anA2aTokenIsAMemberOfItsOwnCompanysAgentsOnly() {
        A2aServerTest.Published agent = A2aServerTest.published();
        A2aServerTest.Published other = A2aServerTest.published();

        for (Map<String, Object> body : List.<Map<String, Object>>of(
                Map.of("name", "too strong", "role", "admin", "a2a_agents", List.of(agent.agent())),
                Map.of("name", "none", "a2a_agents", List.of()),
                Map.of("name", "not an id", "a2a_agents", List.of("agent-1")),
                Map.of("name", "foreign", "a2a_agents", List.of(other.agent())))) {
            given().contentType(ContentType.JSON).body(body).post("/api/companies/{c}/tokens", agent.company())
                    .then().statusCode(400).body("field", org.hamcrest.Matchers.oneOf("role", "a2a_agents"));
        }
        given().contentType(ContentType.JSON)
                .body(Map.of("name", "ops", "a2a_agents", List.of(agent.agent()))).post("/api/tokens").then()
                .statusCode(400).body("field", equalTo("a2a_agents"));
        assertThat(Db.texts("select count(*)::text from run.credential where company_id = ?::uuid"
                + " and a2a_agents is not null", agent.company())).as("nothing made").containsExactly("0");
    }
}
