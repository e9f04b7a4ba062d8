package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.testing.OidcProvider;
import io.trimus.testing.OidcProviderResource;
import io.trimus.testing.TrimusInfraResource;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

/**
 * Sign-in through a real OpenID Connect provider (mock-oauth2-server in a child JVM): run-service verifies the ID
 * token itself, so a token signed by another key, for another client, expired or from another issuer is refused
 * with 401 and creates nobody; a valid one becomes a session whose roles are exactly what the roles claim grants.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = OidcProviderResource.class, scope = TestResourceScope.GLOBAL)
class OidcSignInTest {

    @Test
    void aProviderTokenBecomesASessionWithExactlyTheGrantedRolesEachTime() {
        String first = AccessTableTest.company("Oidc first");
        String second = AccessTableTest.company("Oidc second");
        String email = "oidc-" + UUID.randomUUID() + "@example.com";
        String unknown = UUID.randomUUID().toString();
        // "platform-team" is mapped to operator by the %test TRIMUS_OIDC_ROLE_MAPPING
        String token = token(email, "[\"" + first + ":viewer\", \"" + first + ":admin\", \"" + unknown
                + ":admin\", \"not a role\"]");

        String session = exchange(token).statusCode(201).body("caller.name", equalTo(email))
                .body("caller.operator", equalTo(false)).extract().path("token");
        me(session).body("companies.size()", equalTo(1)).body("companies[0].company_id", equalTo(first))
                .body("companies[0].role", equalTo("admin"));
        assertThat(Db.texts("select password_hash from run.app_user where email = ?", email)).containsExactly(
                (String) null);
        assertThat(Db.texts("select record->'details'->>'through' from run.audit_record where action ="
                + " 'session.opened' and record->'actor'->>'name' = ?", email)).containsExactly("identity provider");

        String again = exchange(token(email, "[\"platform-team\", \"" + second + ":member\"]")).statusCode(201)
                .extract().path("token");
        me(again).body("operator", equalTo(true)).body("companies.size()", equalTo(1))
                .body("companies[0].company_id", equalTo(second)).body("companies[0].role", equalTo("member"));
        assertThat(Db.texts("select action from run.audit_record where record->'actor'->>'name' = ? order by"
                + " occurred_at", email)).contains("member.put", "member.removed", "operator.put");
    }

    @Test
    void aTokenWithoutAnyTrimusRoleIsForbiddenAndCreatesNobody() {
        String email = "oidc-none-" + UUID.randomUUID() + "@example.com";
        exchange(token(email, "[\"" + UUID.randomUUID() + ":admin\", \"guests\"]")).statusCode(403)
                .contentType("application/problem+json")
                .body("detail", equalTo("your identity provider grants no Trimus role"));
        exchange(token(email, null)).statusCode(403);
        assertThat(Db.texts("select id::text from run.app_user where email = ?", email)).isEmpty();
    }

    @Test
    void tokensOfAnotherKeyAudienceIssuerOrTimeAreRefusedAndCreateNobody() throws Exception {
        String company = AccessTableTest.company("Oidc refused");
        String email = "oidc-forged-" + UUID.randomUUID() + "@example.com";
        String roles = "[\"" + company + ":admin\"]";
        String claims = "{\"email\": \"" + email + "\", \"trimus_roles\": " + roles + "}";

        exchange(OidcProvider.idToken(issuer(), "another-client", "someone", claims)).statusCode(401)
                .contentType("application/problem+json").body("detail", containsString("another client"));
        // another issuer signs with keys of its own; and the right key cannot vouch for another issuer's iss
        exchange(OidcProvider.idToken(OidcProvider.otherIssuer(issuer()), OidcProvider.CLIENT_ID, "someone",
                claims)).statusCode(401).body("detail", containsString("signature"));
        exchange(OidcProvider.idToken(issuer(), OidcProvider.CLIENT_ID, "someone", "{\"email\": \"" + email
                + "\", \"trimus_roles\": " + roles + ", \"iss\": \"https://idp.elsewhere.example\"}"))
                .statusCode(401).body("detail", containsString("another issuer"));
        long past = Instant.now().minusSeconds(3600).getEpochSecond();
        exchange(OidcProvider.idToken(issuer(), OidcProvider.CLIENT_ID, "someone", "{\"email\": \"" + email
                + "\", \"trimus_roles\": " + roles + ", \"exp\": " + past + "}")).statusCode(401)
                .body("detail", containsString("expired"));
        exchange(signedByAnotherKey(email, company)).statusCode(401)
                .body("detail", containsString("signature"));
        exchange("x".repeat(16 * 1024 + 1)).statusCode(400).body("field", equalTo("id_token"));

        assertThat(Db.texts("select id::text from run.app_user where email = ?", email)).isEmpty();
        // the same claims from the real issuer for the right client do sign in
        exchange(token(email, roles)).statusCode(201);
    }

    @Test
    void aProviderAccountCannotBeClaimedThroughAnInvitationOrASetupLink() {
        String company = AccessTableTest.company("Oidc claimed");
        String email = "oidc-claimed-" + UUID.randomUUID() + "@example.com";
        exchange(token(email, "[\"" + company + ":viewer\"]")).statusCode(201);

        String attacker = AccessTableTest.company("Oidc attacker");
        String admin = AccessTableTest.bearer(AccessTableTest.token(attacker, "admin"));
        given().header("Authorization", admin).contentType(ContentType.JSON).body(Map.of("role", "admin"))
                .put("/api/companies/{c}/members/{e}", attacker, email).then().statusCode(200)
                .body("$", not(hasKey("setup_url"))).body("$", not(hasKey("password_set")))
                .body("$", not(hasKey("user_id")));
        given().post("/api/accounts/{e}/setup-link", email).then().statusCode(409)
                .body("detail", containsString("identity provider"));
        assertThat(Db.texts("select count(*) from run.credential c join run.app_user u on u.id = c.user_id where"
                + " u.email = ? and c.kind = 'setup'", email)).containsExactly("0");
    }

    @Test
    void anAccountAnAdminMadeBeforeTheProviderVouchedForItKeepsNoneOfTheAdminsKeys() {
        String company = AccessTableTest.company("Oidc pre-made");
        String admin = AccessTableTest.bearer(AccessTableTest.token(company, "admin"));
        String used = "oidc-premade-" + UUID.randomUUID() + "@example.com";
        String kept = "oidc-premade-kept-" + UUID.randomUUID() + "@example.com";
        // the admin makes accounts for people the provider knows, and keeps their links: one used, one not
        String password = "the admin's own password";
        given().header("Authorization", "").contentType(ContentType.JSON).body(Map.of("token",
                        java.net.URI.create(invite(admin, company, used)).getFragment(), "password", password))
                .post("/api/setup").then().statusCode(200);
        String adminsSession = given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("email", used, "password", password)).post("/api/sessions").then().statusCode(201)
                .extract().path("token");
        String keptLink = invite(admin, company, kept);

        // the people sign in through the provider, which makes them operators ("platform-team", mapped in %test)
        me(exchange(token(used, "[\"platform-team\"]")).statusCode(201).extract().path("token"))
                .body("operator", equalTo(true));
        exchange(token(kept, "[\"platform-team\"]")).statusCode(201);

        given().header("Authorization", "Bearer " + adminsSession).get("/api/me").then().statusCode(401);
        given().header("Authorization", "").contentType(ContentType.JSON).body(Map.of("email", used, "password",
                password)).post("/api/sessions").then().statusCode(401);
        given().header("Authorization", "").contentType(ContentType.JSON).body(Map.of("token",
                        java.net.URI.create(keptLink).getFragment(), "password", password)).post("/api/setup").then()
                .statusCode(400).body("field", equalTo("token"));
        assertThat(Db.texts("select record->'details'->>'through' from run.audit_record where action ="
                + " 'password.removed' and record->'target'->>'name' = ?", used)).containsExactly("identity provider");
    }

    private static String invite(String admin, String company, String email) {
        return given().header("Authorization", admin).contentType(ContentType.JSON).body(Map.of("role", "viewer"))
                .put("/api/companies/{c}/members/{e}", company, email).then().statusCode(200).extract()
                .path("setup_url");
    }

    /** Everything right but the key: the provider's issuer, audience and key id, signed with a key of our own. */
    private static String signedByAnotherKey(String email, String company) throws Exception {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer());
        claims.setAudience(OidcProvider.CLIENT_ID);
        claims.setSubject("someone");
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(10);
        claims.setClaim("email", email);
        claims.setStringListClaim("trimus_roles", List.of(company + ":admin"));
        var key = RsaJwkGenerator.generateJwk(2048);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key.getPrivateKey());
        jws.setKeyIdHeaderValue("trimus"); // the provider's own key id
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    private static String token(String email, String rolesJson) {
        String claims = "{\"email\": \"" + email + "\"" + (rolesJson == null ? "" : ", \"trimus_roles\": "
                + rolesJson) + "}";
        return OidcProvider.idToken(issuer(), OidcProvider.CLIENT_ID, "subject-" + email, claims);
    }

    private static String issuer() {
        return ConfigProvider.getConfig().getValue("trimus.oidc.issuer", String.class);
    }

    private static ValidatableResponse exchange(String idToken) {
        return given().contentType(ContentType.JSON).body(Map.of("id_token", idToken))
                .post("/api/sessions/oidc").then();
    }

    private static ValidatableResponse me(String session) {
        return given().header("Authorization", "Bearer " + session).get("/api/me").then().statusCode(200);
    }
}
