package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import io.trimus.testing.access.AccessTable;
import io.trimus.testing.access.AccessWalk;
import io.trimus.testing.access.Caller;
import io.trimus.testing.access.DeclaredEndpoints;
import io.trimus.testing.access.Endpoint;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/access.md is what run-service enforces: every endpoint the code declares has its row with the same level, and
 * every endpoint, called with no credential, a revoked and an expired token, each role of the company the request
 * names, each role of another company and an operator, is refused or let through exactly as the row says.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AccessTableTest {
    private static final String SERVICE = "run-service";

    @Test
    void everyDeclaredEndpointHasItsRowWithTheSameLevel() {
        List<Endpoint> declared = DeclaredEndpoints.scan(AccessTableTest.class.getClassLoader());
        assertThat(declared).as("endpoints found by reflection").hasSizeGreaterThan(20);
        assertThat(declared).noneMatch(e -> e.who().equals("none"));
        assertThat(declared).containsExactlyInAnyOrderElementsOf(AccessTable.of(SERVICE));
    }

    @Test
    void everyEndpointAnswersEveryKindOfCallerAsTheTableSays() throws Exception {
        String right = company("Right");
        String other = company("Other");
        List<Caller> callers = new ArrayList<>();
        callers.add(new Caller("no credential", Caller.Kind.INVALID, null, null));
        callers.add(new Caller("an unknown token", Caller.Kind.INVALID, null, "Bearer trimus_t_nobodyknowsthis"));
        callers.add(new Caller("a revoked token", Caller.Kind.INVALID, null, bearer(revoked(right))));
        callers.add(new Caller("an expired token", Caller.Kind.INVALID, null, bearer(expired(right))));
        for (String role : List.of("admin", "member", "viewer")) {
            callers.add(new Caller(role + " of the company", Caller.Kind.RIGHT_COMPANY, role,
                    bearer(token(right, role))));
            callers.add(new Caller(role + " of another company", Caller.Kind.OTHER_COMPANY, role,
                    bearer(token(other, role))));
        }
        callers.add(new Caller("an operator", Caller.Kind.OPERATOR, null, TestOperator.HEADER));

        Map<String, String> params = Map.of("company_id", right, "agent_id", UUID.randomUUID().toString(),
                "run_id", UUID.randomUUID().toString(), "token_id", UUID.randomUUID().toString(),
                "name", "ACCESS_WALK", "tag", "access-walk", "email", "nobody-" + UUID.randomUUID() + "@example.com");
        AccessWalk walk = new AccessWalk(RestAssured.baseURI + ":" + RestAssured.port, params);
        assertThat(walk.mismatches(AccessTable.of(SERVICE), callers)).isEmpty();
    }

    static String company(String name) {
        return given().contentType(ContentType.JSON).body(Map.of("name", name)).post("/api/companies")
                .then().statusCode(201).extract().path("id");
    }

    static String token(String company, String role) {
        return given().contentType(ContentType.JSON).body(Map.of("name", role + " token", "role", role))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract().path("token");
    }

    private static String revoked(String company) {
        var created = given().contentType(ContentType.JSON).body(Map.of("name", "to revoke", "role", "admin"))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract();
        given().delete("/api/companies/{c}/tokens/{t}", company, created.path("id")).then().log().ifValidationFails()
                .statusCode(204);
        return created.path("token");
    }

    private static String expired(String company) {
        var created = given().contentType(ContentType.JSON).body(Map.of("name", "to expire", "role", "admin"))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract();
        assertThat(Db.update("update run.credential set expires_at = now() - interval '1 second'"
                + " where id = ?", UUID.fromString(created.path("id")))).isEqualTo(1);
        return created.path("token");
    }

    static String bearer(String token) {
        return "Bearer " + token;
    }
}
