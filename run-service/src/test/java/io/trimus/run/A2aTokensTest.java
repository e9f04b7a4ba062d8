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
