package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.run.service.identity.Sessions;
import io.trimus.testing.TestOperator;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * Built-in accounts, sessions and API tokens through the API: a person is added by an admin, sets a password through
 * the one-time link, signs in, and what the session may do follows the membership at once; tokens are shown once,
 * stored hashed, and a revoked token is refused from the next request.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class IdentityApiTest {
    private static final String PASSWORD = "correct horse battery staple";

    @jakarta.inject.Inject
    io.trimus.run.service.identity.CredentialPurge purge;

    @Test
    void aMemberSetsAPasswordSignsInAndActsWithTheRoleItHoldsNow() {
        String company = AccessTableTest.company("Identity");
        String email = "alice-" + UUID.randomUUID() + "@example.com";
        String link = given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                .put("/api/companies/{c}/members/{e}", company, email.toUpperCase())
                .then().statusCode(200).body("email", equalTo(email)).body("role", equalTo("viewer"))
                .body("password_set", equalTo(false)).extract().path("setup_url");
        String secret = URI.create(link).getFragment();
        assertThat(link).startsWith("http://127.0.0.1:8080/setup#trimus_u_");

        given().contentType(ContentType.JSON).body(Map.of("token", secret, "password", "short"))
                .post("/api/setup").then().statusCode(400).body("field", equalTo("password"));
        given().contentType(ContentType.JSON).body(Map.of("token", secret, "password", PASSWORD))
                .post("/api/setup").then().statusCode(200).body("email", equalTo(email));
        given().contentType(ContentType.JSON).body(Map.of("token", secret, "password", "another password 123"))
                .post("/api/setup").then().statusCode(400).body("field", equalTo("token"));
        assertThat(Db.texts("select password_hash from run.app_user where email = ?", email))
                .singleElement().asString().startsWith("$2b$").doesNotContain(PASSWORD);

        signIn(email, "wrong password here").statusCode(401).body("detail", equalTo("wrong email or password"));
        signIn("nobody-" + UUID.randomUUID() + "@example.com", PASSWORD).statusCode(401)
                .body("detail", equalTo("wrong email or password"));
        String session = signIn(email, PASSWORD).statusCode(201).body("caller.kind", equalTo("user"))
                .body("caller.companies[0].role", equalTo("viewer")).extract().path("token");
        String bearer = "Bearer " + session;

        given().header("Authorization", bearer).get("/api/me").then().statusCode(200)
                .body("name", equalTo(email)).body("operator", equalTo(false));
        given().header("Authorization", bearer).get("/api/companies").then().statusCode(200)
                .body("id", equalTo(java.util.List.of(company)));
        given().header("Authorization", bearer).get("/api/companies/{c}/runs", company).then().statusCode(200);
        createAgent(bearer, company).statusCode(403);

        given().contentType(ContentType.JSON).body(Map.of("role", "admin"))
                .put("/api/companies/{c}/members/{e}", company, email).then().statusCode(200)
                .body("setup_url", nullValue());
        createAgent(bearer, company).statusCode(201);

        given().delete("/api/companies/{c}/members/{e}", company, email).then().statusCode(204);
        given().header("Authorization", bearer).get("/api/companies/{c}/runs", company).then().statusCode(404);

        given().header("Authorization", bearer).delete("/api/sessions/current").then().statusCode(204);
        given().header("Authorization", bearer).get("/api/me").then().statusCode(401);
    }

    @Test
    void aTokenIsShownOnceStoredHashedAndRefusedFromTheRequestAfterItsRevocation() {
        String company = AccessTableTest.company("Tokens");
        var created = given().contentType(ContentType.JSON)
                .body(Map.of("name", "ci", "role", "member", "expires_at", Instant.now().plusSeconds(3600).toString()))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201)
                .body("role", equalTo("member")).body("company_id", equalTo(company)).extract();
        String token = created.path("token");
        String id = created.path("id");
        assertThat(token).startsWith("trimus_t_").hasSizeGreaterThan(50);

        given().get("/api/companies/{c}/tokens", company).then().statusCode(200)
                .body("tokens.id", hasItem(id)).body("tokens[0].token", nullValue())
                .body(not(org.hamcrest.Matchers.containsString(token)));
        String stored = Db.texts("select encode(secret_hash, 'hex') from run.credential where id = ?",
                UUID.fromString(id)).get(0);
        assertThat(stored).isNotEqualTo(HexFormat.of().formatHex(token.getBytes(StandardCharsets.UTF_8)))
                .hasSize(64);
        assertThat(Db.texts("select count(*) from run.credential where name = ? or created_by like ?", token,
                "%" + token + "%")).containsExactly("0");

        given().header("Authorization", "Bearer " + token).get("/api/companies/{c}/runs", company)
                .then().statusCode(200);
        given().header("Authorization", "Bearer " + token).get("/api/companies/{c}/tokens", company)
                .then().statusCode(403);
        given().delete("/api/companies/{c}/tokens/{t}", company, id).then().statusCode(204);
        given().header("Authorization", "Bearer " + token).get("/api/companies/{c}/runs", company)
                .then().statusCode(401);
        given().get("/api/companies/{c}/tokens", company).then().body("tokens.find { it.id == '" + id
                + "' }.active", equalTo(false));
    }

    @Test
    void aCompanyAdminCannotMintOperatorPowerOrAnotherCompanysToken() {
        String company = AccessTableTest.company("Escalation");
        String other = AccessTableTest.company("Victim");
        String admin = "Bearer " + AccessTableTest.token(company, "admin");
        given().header("Authorization", admin).contentType(ContentType.JSON)
                .body(Map.of("name", "root", "role", "operator")).post("/api/companies/{c}/tokens", company)
                .then().statusCode(400).body("field", equalTo("role"));
        given().header("Authorization", admin).contentType(ContentType.JSON).body(Map.of("name", "root"))
                .post("/api/tokens").then().statusCode(403);
        given().header("Authorization", admin).contentType(ContentType.JSON)
                .body(Map.of("name", "theirs", "role", "admin")).post("/api/companies/{c}/tokens", other)
                .then().statusCode(404);
        given().header("Authorization", admin).put("/api/operators/{e}", "me@example.com").then().statusCode(403);
        given().header("Authorization", admin).contentType(ContentType.JSON).body(Map.of("role", "admin"))
                .put("/api/companies/{c}/members/{e}", other, "me@example.com").then().statusCode(404);
        given().header("Authorization", admin).get("/api/companies").then().statusCode(200)
                .body("id", equalTo(java.util.List.of(company)));
    }

    @Test
    void badTokenRequestsAreRefusedNamingTheField() {
        String company = AccessTableTest.company("Bad tokens");
        Map<String, Object> pastExpiry = Map.of("name", "old", "role", "viewer", "expires_at", "2020-01-01T00:00:00Z");
        for (var body : java.util.List.of(Map.<String, Object>of("role", "viewer"),
                Map.<String, Object>of("name", "x".repeat(101), "role", "viewer"),
                Map.<String, Object>of("name", "ok", "role", "owner"), pastExpiry)) {
            given().contentType(ContentType.JSON).body(body).post("/api/companies/{c}/tokens", company)
                    .then().statusCode(400).body("field", org.hamcrest.Matchers.notNullValue());
        }
        given().get("/api/companies/{c}/tokens", company).then().body("tokens", org.hamcrest.Matchers.empty());
    }

    @Test
    void theBootstrapOperatorTokenWorksAndIsListedWithoutItsValue() {
        given().header("Authorization", TestOperator.HEADER).get("/api/me").then().statusCode(200)
                .body("operator", equalTo(true)).body("kind", equalTo("token"));
        given().get("/api/tokens").then().statusCode(200)
                .body("tokens.name", hasItem("bootstrap (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN)"))
                .body(not(org.hamcrest.Matchers.containsString(TestOperator.TOKEN)));
    }

    @Test
    void signingInAgainAndAgainKeepsTheNewestSessionsAndEndedOnesArePurged() throws Throwable {
        String company = AccessTableTest.company("Sessions");
        String email = "often-" + UUID.randomUUID() + "@example.com";
        String link = given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                .put("/api/companies/{c}/members/{e}", company, email).then().statusCode(200).extract()
                .path("setup_url");
        given().contentType(ContentType.JSON).body(Map.of("token", URI.create(link).getFragment(), "password",
                PASSWORD)).post("/api/setup").then().statusCode(200);
        java.util.List<String> sessions = new java.util.ArrayList<>();
        for (int i = 0; i <= Sessions.MAX_SESSIONS_PER_USER; i++) {
            sessions.add(signIn(email, PASSWORD).statusCode(201).extract().path("token"));
        }
        given().header("Authorization", "Bearer " + sessions.get(0)).get("/api/me").then().statusCode(401);
        given().header("Authorization", "Bearer " + sessions.get(1)).get("/api/me").then().statusCode(200);
        given().header("Authorization", "Bearer " + sessions.get(sessions.size() - 1)).get("/api/me").then()
                .statusCode(200);

        String user = Db.texts("select id from run.app_user where email = ?", email).get(0);
        Db.update("update run.credential set revoked_at = now() - interval '2 days' where user_id = ?::uuid and"
                + " revoked_at is not null", user);
        long purged = io.quarkus.vertx.VertxContextSupport.subscribeAndAwait(() -> purge.purge(Instant.now()));
        assertThat(purged).isGreaterThanOrEqualTo(2);   // the first session and the used setup link, at least
        assertThat(Db.texts("select count(*) from run.credential where user_id = ?::uuid and kind = 'session'", user))
                .containsExactly(String.valueOf(Sessions.MAX_SESSIONS_PER_USER));
    }

    @Test
    void aCompanyHoldsAtMostItsQuotaOfMembers() {
        String company = AccessTableTest.company("Crowded");
        for (int i = 0; i < 5; i++) {
            given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                    .put("/api/companies/{c}/members/{e}", company, "m" + i + "-" + UUID.randomUUID() + "@example.com")
                    .then().statusCode(200);
        }
        given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                .put("/api/companies/{c}/members/{e}", company, "one-too-many@example.com")
                .then().statusCode(409).body("detail", org.hamcrest.Matchers.containsString("TRIMUS_AUTH_MAX_COMPANY_MEMBERS"));
        assertThat(Db.texts("select count(*) from run.app_user where email = 'one-too-many@example.com'"))
                .containsExactly("0");
    }

    @Test
    void repeatedWrongPasswordsLockThatEmailOutForAWhileAndNoOther() {
        String company = AccessTableTest.company("Lockout");
        String email = "guessed-" + UUID.randomUUID() + "@example.com";
        String other = "bystander-" + UUID.randomUUID() + "@example.com";
        for (String who : new String[]{email, other}) {
            String link = given().contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                    .put("/api/companies/{c}/members/{e}", company, who).then().statusCode(200).extract()
                    .path("setup_url");
            given().contentType(ContentType.JSON).body(Map.of("token", URI.create(link).getFragment(), "password",
                    PASSWORD)).post("/api/setup").then().statusCode(200);
        }
        for (int i = 0; i < 5; i++) {
            signIn(email, "wrong guess " + i).statusCode(401);
        }

        signIn(email, PASSWORD).statusCode(429).body("detail", containsString("too many failed sign-ins"));
        signIn(email.toUpperCase(), "another guess").statusCode(429);
        signIn(other, PASSWORD).statusCode(201);
        String unknown = "nobody-" + UUID.randomUUID() + "@example.com";
        for (int i = 0; i < 5; i++) {
            signIn(unknown, "guess " + i).statusCode(401);
        }
        // the same answer for an email no account has: the lockout does not tell which exist
        signIn(unknown, "guess").statusCode(429).body("detail", containsString("too many failed sign-ins"));
    }

    @Test
    void anOperatorLosesThePowerFromItsNextRequestAndTheLastOperatorAccountStays() {
        String email = "ops-" + UUID.randomUUID() + "@example.com";
        given().put("/api/operators/{e}", "ops-colleague-" + UUID.randomUUID() + "@example.com").then()
                .statusCode(200);
        String link = given().put("/api/operators/{e}", email).then().statusCode(200)
                .body("email", equalTo(email)).extract().path("setup_url");
        given().contentType(ContentType.JSON).body(Map.of("token", URI.create(link).getFragment(), "password",
                PASSWORD)).post("/api/setup").then().statusCode(200);
        String bearer = "Bearer " + signIn(email, PASSWORD).statusCode(201).extract().path("token");
        given().header("Authorization", bearer).get("/api/tokens").then().statusCode(200);
        given().get("/api/operators").then().statusCode(200)
                .body("operators.find { it.email == '" + email + "' }.password_set", equalTo(true));

        given().delete("/api/operators/{e}", email).then().statusCode(204);

        given().header("Authorization", bearer).get("/api/tokens").then().statusCode(403);
        given().header("Authorization", bearer).get("/api/me").then().statusCode(200)
                .body("operator", equalTo(false));
        given().delete("/api/operators/{e}", email).then().statusCode(404);
        given().get("/api/audit").then().statusCode(200)
                .body("records.find { it.action == 'operator.removed' && it.target.name == '" + email + "' }",
                        org.hamcrest.Matchers.notNullValue());
        // whatever other operator accounts exist, the last one cannot be removed
        java.util.List<String> operators = given().get("/api/operators").then().statusCode(200).extract()
                .path("operators.email");
        try {
            for (int i = 0; i < operators.size() - 1; i++) {
                given().delete("/api/operators/{e}", operators.get(i)).then().statusCode(204);
            }
            given().delete("/api/operators/{e}", operators.get(operators.size() - 1)).then().statusCode(409)
                    .body("detail", org.hamcrest.Matchers.containsString("last operator"));
        } finally {
            operators.forEach(operator -> given().put("/api/operators/{e}", operator).then().statusCode(200));
        }
    }

    private static ValidatableResponse signIn(String email, String password) {
        return given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", password)).post("/api/sessions").then();
    }

    private static ValidatableResponse createAgent(String bearer, String company) {
        return given().header("Authorization", bearer).contentType(ContentType.JSON)
                .body(Map.of("name", "a", "adapter_type", "docker", "adapter_config",
                        Map.of("image", "trimus/busybox:local", "command", java.util.List.of("true"))))
                .post("/api/companies/{c}/agents", company).then();
    }
}
