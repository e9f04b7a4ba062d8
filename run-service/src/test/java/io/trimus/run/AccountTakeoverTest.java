package io.trimus.run;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.run.service.identity.OperatorBootstrap;
import io.trimus.run.service.identity.Vouching;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * Issue 28: a company admin adding an existing account as a member (the bootstrap operator) gets the membership added
 * and nothing else: no setup link, no word on the account's password or id, and the link the person holds keeps
 * working. An account another company's invitation made cannot be added at all until an operator vouches for it, and
 * the vouch ends the password and sessions that company's link opened. Setup links come only from the call that
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

        // another company's admin cannot even add the account: B's invitation vouches for it to B alone
        String attacker = AccessTableTest.company("Takeover A2");
        String attackerAdmin = AccessTableTest.bearer(AccessTableTest.token(attacker, "admin"));
        for (String role : List.of("viewer", "admin")) {
            notVouched(putMember(attackerAdmin, attacker, person.toUpperCase(), role), victimCompany);
        }
        assertThat(activeSetupLinks(person)).isEqualTo(1);
        // an operator adding a membership still may, and that makes no link either
        String picked = AccessTableTest.company("Takeover picked");
        putMember(io.trimus.testing.TestOperator.HEADER, picked, person, "viewer").statusCode(200)
                .body("$", not(hasKey("setup_url")));
        assertThat(activeSetupLinks(person)).isEqualTo(1);

        // the invitee's own link still sets the password; the session holds the invited memberships, not A2's
        setup(URI.create(link).getFragment()).statusCode(200);
        String session = signIn(person).statusCode(201).extract().path("token");
        given().header("Authorization", "Bearer " + session).get("/api/companies/{c}/secrets", victimCompany).then()
                .statusCode(200);
        given().header("Authorization", "Bearer " + session).get("/api/me").then().statusCode(200)
                .body("operator", equalTo(false)).body("companies.company_id", containsInAnyOrder(victimCompany,
                        picked));
        // the inviting company sees that its invitation was used; the others see no more than before
        given().header("Authorization", victimAdmin).get("/api/companies/{c}/members", victimCompany).then()
                .body("members.find { it.email == '" + person + "' }.password_set", equalTo(true));
        given().get("/api/companies/{c}/members", picked).then()
                .body("members.find { it.email == '" + person + "' }", not(hasKey("password_set")));
        given().header("Authorization", attackerAdmin).get("/api/companies/{c}/members", attacker).then()
                .body("members.email", not(hasItem(person)));
    }

    @Test
    void anAccountACompanyPreMadeForAnotherCompanysPersonJoinsThatCompanyOnlyOnceAnOperatorVouchesAndTakesItBack() {
        String attacker = AccessTableTest.company("Pre-made A");
        String attackerAdmin = AccessTableTest.bearer(AccessTableTest.token(attacker, "admin"));
        String victim = AccessTableTest.company("Pre-made B");
        String victimAdmin = AccessTableTest.bearer(AccessTableTest.token(victim, "admin"));
        given().contentType(ContentType.JSON).body(Map.of("value", "crown jewel"))
                .put("/api/companies/{c}/secrets/{n}", victim, "CROWN").then().statusCode(201);
        String bob = "bob-" + UUID.randomUUID() + "@b.example";
        // A's admin makes bob's account before B does, keeps the link and sets a password of its own
        String kept = putMember(attackerAdmin, attacker, bob, "viewer").statusCode(200).extract().path("setup_url");
        String attackersPassword = "the attacker's own password";
        given().header("Authorization", "").contentType(ContentType.JSON).body(Map.of("token",
                URI.create(kept).getFragment(), "password", attackersPassword)).post("/api/setup").then()
                .statusCode(200);
        String attackersSession = signIn(bob, attackersPassword).statusCode(201).extract().path("token");
        // A's own invitee: its role changes, it goes, and it comes back, all in A
        putMember(attackerAdmin, attacker, bob, "admin").statusCode(200).body("role", equalTo("admin"));
        given().header("Authorization", attackerAdmin).delete("/api/companies/{c}/members/{e}", attacker, bob)
                .then().statusCode(204);
        putMember(attackerAdmin, attacker, bob, "viewer").statusCode(200).body("$", not(hasKey("setup_url")));

        // B invites bob: refused, and nothing changes
        for (String role : List.of("admin", "viewer")) {
            notVouched(putMember(victimAdmin, victim, bob, role), attacker);
        }
        given().header("Authorization", victimAdmin).get("/api/companies/{c}/members", victim).then()
                .statusCode(200).body("members.email", not(hasItem(bob)));
        assertThat(Db.texts("select count(*) from run.audit_record where company_id = ?::uuid and"
                + " record->'target'->>'name' = ?", victim, bob)).containsExactly("0");
        given().header("Authorization", "Bearer " + attackersSession).get("/api/companies/{c}/secrets", victim)
                .then().statusCode(404);
        given().header("Authorization", "Bearer " + attackersSession).get("/api/me").then().statusCode(200)
                .body("companies.company_id", not(hasItem(victim)));

        // an operator vouches: the password A's link set ends with its sessions, and the operator gets a fresh link
        given().header("Authorization", victimAdmin).post("/api/accounts/{e}/vouch", bob).then().statusCode(403);
        String fresh = given().post("/api/accounts/{e}/vouch", bob.toUpperCase()).then().statusCode(200)
                .body("email", equalTo(bob)).body("vouched_by", equalTo("operator"))
                .body("password_removed", equalTo(true)).body("expires_at", notNullValue())
                .extract().path("setup_url");
        given().header("Authorization", "Bearer " + attackersSession).get("/api/me").then().statusCode(401);
        signIn(bob, attackersPassword).statusCode(401);
        assertThat(Db.texts("select record->>'action' || ':' || coalesce(record->'details'->>'through',"
                + " record->'details'->>'password_removed') from run.audit_record where record->'target'->>'name' = ?"
                + " and action in ('password.removed', 'account.vouched') order by occurred_at", bob))
                .containsExactly("password.removed:operator", "account.vouched:true");

        // now B adds bob, and the real bob sets the password with the operator's link
        putMember(victimAdmin, victim, bob, "admin").statusCode(200).body("$", not(hasKey("setup_url")))
                .body("$", not(hasKey("password_set")));
        setup(URI.create(fresh).getFragment()).statusCode(200);
        String bobs = signIn(bob).statusCode(201).extract().path("token");
        given().header("Authorization", "Bearer " + bobs).get("/api/companies/{c}/secrets", victim).then()
                .statusCode(200);
        signIn(bob, attackersPassword).statusCode(401);
        // vouching again is no change: no link, the password stays
        given().post("/api/accounts/{e}/vouch", bob).then().statusCode(200).body("vouched_by", equalTo("operator"))
                .body("password_removed", equalTo(false)).body("$", not(hasKey("setup_url")));
        given().header("Authorization", "Bearer " + bobs).get("/api/me").then().statusCode(200);
        given().post("/api/accounts/{e}/vouch", "nobody-" + UUID.randomUUID() + "@example.com").then()
                .statusCode(404);
    }

    @Test
    void aPasswordSignInRacingAVouchThatEndsThePasswordOpensNoSession() throws Exception {
        String company = AccessTableTest.company("Sign-in race");
        String admin = AccessTableTest.bearer(AccessTableTest.token(company, "admin"));
        String person = "race-" + UUID.randomUUID() + "@example.com";
        setup(URI.create(putMember(admin, company, person, "viewer").statusCode(200).extract()
                .<String>path("setup_url")).getFragment()).statusCode(200);
        // what a vouch does, held open: the account's row locked, its password gone, its sessions ended
        try (Connection vouch = Db.transaction()) {
            String xid = Db.texts(vouch, "select pg_current_xact_id()::text from run.app_user where email = ? for"
                    + " update", person).get(0);
            CompletableFuture<Integer> signIn = CompletableFuture.supplyAsync(() -> signIn(person).extract()
                    .statusCode());
            await().atMost(Duration.ofSeconds(30)).until(() -> signIn.isDone() || !Db.texts("select 1 from"
                    + " pg_locks where not granted and locktype = 'transactionid' and transactionid::text = ?",
                    xid).isEmpty());
            Db.texts(vouch, "update run.app_user set password_hash = null where email = ? returning id", person);
            Db.texts(vouch, "update run.credential set revoked_at = now() where kind = 'session' and user_id ="
                    + " (select id from run.app_user where email = ?) and revoked_at is null returning id", person);
            vouch.commit();
            assertThat(signIn.get(30, TimeUnit.SECONDS)).isEqualTo(401);
        }
        assertThat(Db.texts("select count(*) from run.credential c join run.app_user u on u.id = c.user_id where"
                + " u.email = ? and c.kind = 'session' and c.revoked_at is null", person)).containsExactly("0");
    }

    private static void notVouched(ValidatableResponse response, String otherCompany) {
        response.statusCode(409).contentType("application/problem+json")
                .body("detail", equalTo(Vouching.NOT_VOUCHED)).body(not(containsString(otherCompany)));
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
        return signIn(email, PASSWORD);
    }

    private static ValidatableResponse signIn(String email, String password) {
        return given().header("Authorization", "").contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", password)).post("/api/sessions").then();
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
