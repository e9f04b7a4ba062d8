package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.run.service.OperatorBootstrap;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * Issue 28, part 1: a company admin adding an existing account as a member (the bootstrap operator, another company's
 * invitee who has not opened their link) gets the membership added and nothing else: no setup link, no word on the
 * account's password or id, and the link the person holds keeps working. Setup links come only from the call that
 * made the account or from an operator, and /api/setup takes nothing but a live one. The bootstrap operator's link
 * goes to a file of its own, never to the log.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class AccountTakeoverTest {
    private static final String PASSWORD = "correct horse battery staple";

    @Inject
    OperatorBootstrap bootstrap;

    @Test
    void aCompanyAdminCannotGetASetupLinkForTheBootstrapOperatorWhoseOwnLinkStaysInItsFileAndOutOfTheLog(
            @TempDir Path dir) throws Throwable {
        String operator = "bootstrap-" + UUID.randomUUID() + "@trimus.local";
        Path file = dir.resolve("operator-setup-link");
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = capturing(logged);
        Logger.getLogger("io.trimus").addHandler(capture);
        try {
            bootstrap.ensureOperator(operator, file);
        } finally {
            Logger.getLogger("io.trimus").removeHandler(capture);
        }
        String own = Files.readString(file).strip();
        assertThat(own).startsWith("http://127.0.0.1:8080/setup#trimus_u_");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        String secret = URI.create(own).getFragment();
        assertThat(logged).anyMatch(line -> line.contains(file.toString()))
                .noneMatch(line -> line.contains(secret) || line.contains("/setup#"));

        String company = AccessTableTest.company("Takeover A");
        String admin = AccessTableTest.bearer(AccessTableTest.token(company, "admin"));
        putMember(admin, company, operator, "admin").statusCode(200)
                .body("email", equalTo(operator)).body("role", equalTo("admin"))
                .body("$", not(hasKey("setup_url"))).body("$", not(hasKey("password_set")))
                .body("$", not(hasKey("user_id")));
        putMember(admin, company, operator, "viewer").statusCode(200).body("$", not(hasKey("setup_url")));
        given().header("Authorization", admin).get("/api/companies/{c}/members", company).then().statusCode(200)
                .body("members.find { it.email == '" + operator + "' }", not(hasKey("password_set")))
                .body("members.find { it.email == '" + operator + "' }", not(hasKey("user_id")));
        assertThat(Db.texts("select record->'details'->>'setup_link_made' from run.audit_record where action ="
                + " 'member.put' and company_id = ?::uuid", company)).containsOnly("false");
        given().header("Authorization", admin).queryParam("company_id", company).get("/api/audit").then()
                .statusCode(200).body(not(containsString(userId(operator))));
        assertThat(activeSetupLinks(operator)).isEqualTo(1);

        // the operator's own link still works, and it alone: the account is the operator's
        setup(secret).statusCode(200).body("email", equalTo(operator));
        String session = signIn(operator).statusCode(201).extract().path("token");
        given().header("Authorization", "Bearer " + session).get("/api/me").then().statusCode(200)
                .body("operator", equalTo(true));
        // once it has a password, the next start removes the file
        bootstrap.ensureOperator(operator, file);
        assertThat(file).doesNotExist();
    }

    @Test
    void aCompanyAdminCannotTakeOverAnotherCompanysPendingInviteeWhoseLinkStillWorks() {
        String victimCompany = AccessTableTest.company("Takeover B");
        String victimAdmin = AccessTableTest.bearer(AccessTableTest.token(victimCompany, "admin"));
        String person = "invitee-" + UUID.randomUUID() + "@example.com";
        String link = putMember(victimAdmin, victimCompany, person, "admin").statusCode(200)
                .body("password_set", equalTo(false)).extract().path("setup_url");
        given().contentType(ContentType.JSON).body(Map.of("value", "crown jewel"))
                .put("/api/companies/{c}/secrets/{n}", victimCompany, "CROWN").then().statusCode(201);

        String attacker = AccessTableTest.company("Takeover A2");
        String attackerAdmin = AccessTableTest.bearer(AccessTableTest.token(attacker, "admin"));
        for (String role : List.of("viewer", "admin")) {
            putMember(attackerAdmin, attacker, person.toUpperCase(), role).statusCode(200)
                    .body("email", equalTo(person)).body("$", not(hasKey("setup_url")))
                    .body("$", not(hasKey("password_set"))).body("$", not(hasKey("user_id")));
        }
        // a remove and an add again changes nothing either
        given().header("Authorization", attackerAdmin).delete("/api/companies/{c}/members/{e}", attacker, person)
                .then().statusCode(204);
        putMember(attackerAdmin, attacker, person, "viewer").statusCode(200).body("$", not(hasKey("setup_url")));
        assertThat(activeSetupLinks(person)).isEqualTo(1);
        given().header("Authorization", attackerAdmin).get("/api/companies/{c}/secrets", victimCompany).then()
                .statusCode(404);

        // the invitee's own link still sets the password; the session holds both memberships, as invited
        setup(URI.create(link).getFragment()).statusCode(200);
        String session = signIn(person).statusCode(201).extract().path("token");
        given().header("Authorization", "Bearer " + session).get("/api/companies/{c}/secrets", victimCompany).then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + session).get("/api/me").then().statusCode(200)
                .body("operator", equalTo(false)).body("companies.size()", equalTo(2));
        // the inviting company sees that its invitation was used; the other sees no more than before
        given().header("Authorization", victimAdmin).get("/api/companies/{c}/members", victimCompany).then()
                .body("members.find { it.email == '" + person + "' }.password_set", equalTo(true));
        given().header("Authorization", attackerAdmin).get("/api/companies/{c}/members", attacker).then()
                .body("members.find { it.email == '" + person + "' }", not(hasKey("password_set")));
    }

    @Test
    void onlyTheCallThatMadeTheAccountOrAnOperatorGetsALinkAndAnOperatorsLinkEndsTheOldOne() {
        String company = AccessTableTest.company("Links");
        String admin = AccessTableTest.bearer(AccessTableTest.token(company, "admin"));
        String person = "lost-" + UUID.randomUUID() + "@example.com";
        String first = putMember(admin, company, person, "member").statusCode(200).extract().path("setup_url");
        // the admin's own invitee: a role change makes no new link, and the admin cannot ask for one
        putMember(admin, company, person, "viewer").statusCode(200).body("$", not(hasKey("setup_url")));
        given().header("Authorization", admin).post("/api/accounts/{e}/setup-link", person).then().statusCode(403);

        // an operator can, deliberately: the person lost the first link
        String second = given().post("/api/accounts/{e}/setup-link", person.toUpperCase()).then().statusCode(201)
                .body("email", equalTo(person)).body("expires_at", notNullValue()).extract().path("setup_url");
        setup(URI.create(first).getFragment()).statusCode(400).body("field", equalTo("token"));
        setup(URI.create(second).getFragment()).statusCode(200);
        given().post("/api/accounts/{e}/setup-link", person).then().statusCode(409)
                .body("detail", containsString("has a password already"));
        given().post("/api/accounts/{e}/setup-link", "nobody-" + UUID.randomUUID() + "@example.com").then()
                .statusCode(404);
        assertThat(Db.texts("select count(*) from run.audit_record where action = 'setup_link.issued' and"
                + " record->'target'->>'name' = ?", person)).containsExactly("1");
    }

    @Test
    void makingAPendingInviteeAnOperatorEndsTheLinkItsCompanyHandedOut() {
        String company = AccessTableTest.company("Promoted");
        String admin = AccessTableTest.bearer(AccessTableTest.token(company, "admin"));
        String person = "promoted-" + UUID.randomUUID() + "@example.com";
        String companysLink = putMember(admin, company, person, "admin").statusCode(200).extract().path("setup_url");

        String operatorsLink = given().put("/api/operators/{e}", person).then().statusCode(200)
                .body("password_set", equalTo(false)).extract().path("setup_url");
        assertThat(operatorsLink).isNotNull().isNotEqualTo(companysLink);
        setup(URI.create(companysLink).getFragment()).statusCode(400);
        // already an operator: no change, and no link that would end the one just handed out
        given().put("/api/operators/{e}", person).then().statusCode(200).body("setup_url", nullValue());
        setup(URI.create(operatorsLink).getFragment()).statusCode(200);
        given().header("Authorization", "Bearer " + signIn(person).statusCode(201).extract().<String>path("token"))
                .get("/api/me").then().body("operator", equalTo(true));
        given().delete("/api/operators/{e}", person).then().statusCode(204);
    }

    @Test
    void setupTakesNothingButALiveSetupLink() {
        String company = AccessTableTest.company("Setup input");
        String admin = AccessTableTest.token(company, "admin");
        String person = "setup-" + UUID.randomUUID() + "@example.com";
        String link = putMember(AccessTableTest.bearer(admin), company, person, "member").statusCode(200)
                .extract().path("setup_url");
        String expiring = "expiring-" + UUID.randomUUID() + "@example.com";
        String expired = URI.create(putMember(AccessTableTest.bearer(admin), company, expiring, "member")
                .statusCode(200).extract().<String>path("setup_url")).getFragment();
        assertThat(Db.update("update run.credential set expires_at = now() - interval '1 second' where kind ="
                + " 'setup' and user_id = (select id from run.app_user where email = ?)", expiring)).isEqualTo(1);
        setup(URI.create(link).getFragment()).statusCode(200);
        String session = signIn(person).statusCode(201).extract().path("token");

        for (String token : List.of(URI.create(link).getFragment(), expired, session, admin,
                io.trimus.testing.TestOperator.TOKEN, "trimus_u_" + "A".repeat(43), "", "x".repeat(201))) {
            setup(token).statusCode(400).body("field", equalTo("token"));
        }
        given().contentType(ContentType.JSON).body(Map.of("password", PASSWORD)).post("/api/setup").then()
                .statusCode(400);
        assertThat(Db.texts("select count(*) from run.app_user where email = ? and password_hash is not null",
                expiring)).containsExactly("0");
        // the person's password is still theirs
        signIn(person).statusCode(201);
    }

    private static ValidatableResponse putMember(String authorization, String company, String email, String role) {
        return given().header("Authorization", authorization).contentType(ContentType.JSON)
                .body(Map.of("role", role)).put("/api/companies/{c}/members/{e}", company, email).then();
    }

    private static ValidatableResponse setup(String token) {
        return given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("token", token, "password", PASSWORD)).post("/api/setup").then();
    }

    static ValidatableResponse signIn(String email) {
        return given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", PASSWORD)).post("/api/sessions")
                .then();
    }

    private static int activeSetupLinks(String email) {
        return Integer.parseInt(Db.texts("select count(*) from run.credential c join run.app_user u on u.id ="
                + " c.user_id where u.email = ? and c.kind = 'setup' and c.revoked_at is null and c.expires_at >"
                + " now()", email).get(0));
    }

    private static String userId(String email) {
        return Db.texts("select id::text from run.app_user where email = ?", email).get(0);
    }

    private static Handler capturing(List<String> lines) {
        return new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
    }
}
