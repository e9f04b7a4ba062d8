package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.trimus.testing.RunServiceResource;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import io.trimus.testing.access.AccessTable;
import io.trimus.testing.access.AccessWalk;
import io.trimus.testing.access.Caller;
import io.trimus.testing.access.DeclaredEndpoints;
import io.trimus.testing.access.Endpoint;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/access.md is what egress-service enforces, with run-service (a real one, in a child JVM) saying who each
 * credential is: every declared endpoint has its row, and every endpoint answers no credential, revoked and expired
 * tokens, each role of the company and of another company, an operator and the service credential as the row says.
 * Metrics need an operator or the service; health stays open.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = RunServiceResource.class, scope = TestResourceScope.GLOBAL)
class AccessTableTest {
    private static final String SERVICE = "egress-service";

    @Test
    void everyDeclaredEndpointHasItsRowWithTheSameLevel() {
        List<Endpoint> declared = DeclaredEndpoints.scan(AccessTableTest.class.getClassLoader());
        assertThat(declared).as("endpoints found by reflection").hasSizeGreaterThan(10);
        assertThat(declared).containsExactlyInAnyOrderElementsOf(AccessTable.of(SERVICE));
    }

    @Test
    void everyEndpointAnswersEveryKindOfCallerAsTheTableSays() throws Exception {
        RunService run = new RunService();
        String right = run.company("Right");
        String other = run.company("Other");
        List<Caller> callers = new ArrayList<>();
        callers.add(new Caller("no credential", Caller.Kind.INVALID, null, null));
        callers.add(new Caller("an unknown token", Caller.Kind.INVALID, null, "Bearer trimus_t_nobodyknowsthis"));
        callers.add(new Caller("a revoked token", Caller.Kind.INVALID, null, "Bearer " + run.revokedToken(right)));
        for (String role : List.of("admin", "member", "viewer")) {
            callers.add(new Caller(role + " of the company", Caller.Kind.RIGHT_COMPANY, role,
                    "Bearer " + run.token(right, role)));
            callers.add(new Caller(role + " of another company", Caller.Kind.OTHER_COMPANY, role,
                    "Bearer " + run.token(other, role)));
        }
        callers.add(new Caller("an operator", Caller.Kind.OPERATOR, null, TestOperator.HEADER));
        callers.add(new Caller("the service credential", Caller.Kind.SERVICE, null, EgressApi.serviceHeader()));

        Map<String, String> params = Map.of("company_id", right, "run_id", UUID.randomUUID().toString(),
                "ip", "172.30.9.9", "agent_id", UUID.randomUUID().toString());
        AccessWalk walk = new AccessWalk(RestAssured.baseURI + ":" + RestAssured.port, params);
        assertThat(walk.mismatches(AccessTable.of(SERVICE), callers)).isEmpty();
    }

    @Test
    void metricsNeedAnOperatorOrTheServiceAndHealthStaysOpen() throws Exception {
        RunService run = new RunService();
        String company = run.company("Metrics");
        AccessWalk walk = new AccessWalk(RestAssured.baseURI + ":" + RestAssured.port, Map.of("company_id", company));
        Endpoint metrics = new Endpoint("GET", "/q/metrics", "operator");
        assertThat(walk.call(metrics, new Caller("none", Caller.Kind.INVALID, null, null)).statusCode())
                .isEqualTo(401);
        assertThat(walk.call(metrics, new Caller("admin", Caller.Kind.RIGHT_COMPANY, "admin",
                "Bearer " + run.token(company, "admin"))).statusCode()).isEqualTo(403);
        assertThat(walk.call(metrics, new Caller("operator", Caller.Kind.OPERATOR, null, TestOperator.HEADER))
                .statusCode()).isEqualTo(200);
        assertThat(walk.call(metrics, new Caller("service", Caller.Kind.SERVICE, null, EgressApi.serviceHeader()))
                .statusCode()).isEqualTo(200);
        HttpResponse<String> health = walk.call(new Endpoint("GET", "/q/health", "anyone"),
                new Caller("none", Caller.Kind.INVALID, null, null));
        assertThat(health.statusCode()).isEqualTo(200);
    }

    /** An API token: its id (to revoke it) and its value. */
    record Token(String id, String value) {
    }

    /** A person in a company: its email and the session it signed in with. */
    record Member(String email, String session) {
    }

    /** The run-service child, where companies and tokens are made. */
    static final class RunService {
        private final String url = ConfigProvider.getConfig().getValue(RunServiceResource.URL_KEY, String.class);

        String company(String name) {
            return RestAssured.given().baseUri(url).contentType(ContentType.JSON).body(Map.of("name", name))
                    .post("/api/companies").then().statusCode(201).extract().path("id");
        }

        String token(String company, String role) {
            return RestAssured.given().baseUri(url).contentType(ContentType.JSON)
                    .body(Map.of("name", role, "role", role)).post("/api/companies/{c}/tokens", company)
                    .then().statusCode(201).extract().path("token");
        }

        /** A new token of {@code company} with {@code role}: its id and its value. */
        Token newToken(String company, String role) {
            var created = RestAssured.given().baseUri(url).contentType(ContentType.JSON)
                    .body(Map.of("name", role, "role", role)).post("/api/companies/{c}/tokens", company)
                    .then().statusCode(201).extract();
            return new Token(created.path("id"), created.path("token"));
        }

        void revoke(String company, Token token) {
            RestAssured.given().baseUri(url).delete("/api/companies/{c}/tokens/{t}", company, token.id())
                    .then().statusCode(204);
        }

        /** A new person with {@code role} in {@code company}, signed in: its email and session. */
        Member signedInMember(String company, String role) {
            String email = "streams-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
            String setup = RestAssured.given().baseUri(url).contentType(ContentType.JSON).body(Map.of("role", role))
                    .put("/api/companies/{c}/members/{e}", company, email).then().statusCode(200)
                    .extract().path("setup_url");
            String password = "correct horse battery staple";
            RestAssured.given().baseUri(url).contentType(ContentType.JSON)
                    .body(Map.of("token", java.net.URI.create(setup).getFragment(), "password", password))
                    .post("/api/setup").then().statusCode(200);
            String session = RestAssured.given().baseUri(url).contentType(ContentType.JSON)
                    .body(Map.of("email", email, "password", password)).post("/api/sessions")
                    .then().statusCode(201).extract().path("token");
            return new Member(email, session);
        }

        void removeMember(String company, Member member) {
            RestAssured.given().baseUri(url).delete("/api/companies/{c}/members/{e}", company, member.email())
                    .then().statusCode(204);
        }

        String revokedToken(String company) {
            var created = RestAssured.given().baseUri(url).contentType(ContentType.JSON)
                    .body(Map.of("name", "revoked", "role", "admin")).post("/api/companies/{c}/tokens", company)
                    .then().statusCode(201).extract();
            RestAssured.given().baseUri(url).delete("/api/companies/{c}/tokens/{t}", company, created.path("id"))
                    .then().statusCode(204);
            return created.path("token");
        }
    }
}
