package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The members and API tokens pages end to end, as a signed-in admin: a person added by email (its setup link shown
 * once) signs in, roles change and members go; a token made on the page works against run-service's API and is
 * refused there once revoked on the page; operator tokens likewise on /tokens.
 */
@ExtendWith(SystemStack.class)
class DashboardAccountsTest {
    private static final Pattern SETUP_URL = Pattern.compile("id=\"setup-url\">([^<]+)<");
    private static final Pattern TOKEN = Pattern.compile("id=\"token-value\">([^<]+)<");

    URI dashboard = SystemStack.dashboard();

    @Test
    void anAdminAddsAPersonWhoSignsInWithTheSetupLinkThenChangesItsRoleAndRemovesIt() {
        String company = Stack.createCompany(Stack.unique("Members"));
        Http admin = signedIn(company, "admin");
        String page = "/companies/" + company + "/members";
        String csrf = Http.csrf(admin.get(page));
        String email = Accounts.newEmail();

        HttpResponse<String> added = admin.post(page, Map.of("email", email, "role", "viewer", "_csrf", csrf));
        assertThat(added.statusCode()).isEqualTo(200);
        Matcher link = SETUP_URL.matcher(added.body());
        assertThat(link.find()).as("the setup link is on the answer page").isTrue();
        assertThat(added.body()).contains("shown only now");
        Accounts.setPassword(URI.create(link.group(1).replace("&#x2F;", "/")), Accounts.PASSWORD);
        assertThat(admin.get(page).body()).as("shown once").doesNotContain("id=\"setup-url\"")
                .contains("data-email=\"" + email + "\"");
        Http person = new Http(dashboard).withSession(new Http(dashboard).signIn(email, Accounts.PASSWORD));
        assertThat(person.get("/companies/" + company + "/egress").body()).doesNotContain("/egress/allowlist/add");

        assertThat(admin.post(page, Map.of("email", email, "role", "admin", "_csrf", csrf)).statusCode())
                .isEqualTo(303);
        assertThat(person.get("/companies/" + company + "/egress").body()).contains("/egress/allowlist/add");

        assertThat(admin.post(page + "/remove", Map.of("email", email, "_csrf", csrf)).statusCode()).isEqualTo(303);
        assertThat(admin.get(page).body()).doesNotContain("data-email=\"" + email + "\"");
        assertThat(person.get("/companies/" + company).statusCode()).isEqualTo(404);
    }

    @Test
    void anAccountThatExistsIsAddedWithoutALinkButAnotherCompanysInviteeIsRefusedWithRunServicesSentence() {
        String other = Stack.createCompany(Stack.unique("Elsewhere"));
        String email = Accounts.withPassword(other, "viewer");
        String company = Stack.createCompany(Stack.unique("Members"));
        Http admin = signedIn(company, "admin");
        String page = "/companies/" + company + "/members";
        String csrf = Http.csrf(admin.get(page));

        HttpResponse<String> added = admin.post(page, Map.of("email", email, "role", "member", "_csrf", csrf));
        assertThat(added.statusCode()).as("no setup link to show").isEqualTo(303);
        assertThat(admin.get(page).body()).contains("data-email=\"" + email + "\"").contains("their own account")
                .doesNotContain("id=\"setup-url\"");
        // an account the other company's admin invited is that company's alone until an operator vouches for it
        String otherAdmin = Stack.runService().body(Map.of("name", "admin", "role", "admin"))
                .post("/api/companies/{c}/tokens", other).then().statusCode(201).extract().path("token");
        String invitee = Accounts.newEmail();
        runServiceAs(otherAdmin).contentType("application/json").body(Map.of("role", "viewer"))
                .put("/api/companies/{c}/members/{e}", other, invitee).then().statusCode(200);
        HttpResponse<String> refused = admin.post(page, Map.of("email", invitee, "role", "member", "_csrf", csrf));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("id=\"member-error\"")
                .contains("an operator must vouch for it before another company can add it")
                .doesNotContain("data-email=\"" + invitee + "\"").doesNotContain(other);
        // the dashboard names the browser it signs in, so run-service gives its password check a turn of its own
        new Http(dashboard).signIn(email, Accounts.PASSWORD);
        java.util.List<String> signIns = Stack.runService().get("/api/audit").then().statusCode(200).extract()
                .jsonPath().getList("records.findAll { it.action == 'session.opened' && it.actor.name == '" + email
                        + "' }.source.forwarded_for");
        assertThat(signIns).isNotEmpty().allSatisfy(address -> assertThat(address).isEqualTo("127.0.0.1"));
    }

    @Test
    void aTokenMadeOnThePageWorksAgainstTheApiUntilItIsRevokedOnThePage() {
        String company = Stack.createCompany(Stack.unique("Tokens"));
        Http admin = signedIn(company, "admin");
        String page = "/companies/" + company + "/tokens";
        String csrf = Http.csrf(admin.get(page));

        java.time.LocalDate lastDay = java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusYears(1);
        HttpResponse<String> made = admin.post(page, Map.of("name", "ci-deploy", "role", "member",
                "expires_on", lastDay.toString(), "_csrf", csrf));
        assertThat(made.statusCode()).isEqualTo(200);
        assertThat(made.body()).contains("shown only this once");
        Matcher value = TOKEN.matcher(made.body());
        assertThat(value.find()).isTrue();
        String token = value.group(1);
        runServiceAs(token).get("/api/companies/{c}/agents", company).then().statusCode(200);
        HttpResponse<String> list = admin.get(page);
        assertThat(list.body()).contains("ci-deploy").doesNotContain(token).contains(lastDay.plusDays(1) + " 00:00:00 UTC");

        Matcher row = Pattern.compile("data-token=\"([0-9a-f-]{36})\"").matcher(list.body());
        assertThat(row.find()).isTrue();
        assertThat(admin.post(page + "/" + row.group(1) + "/revoke", Map.of("_csrf", csrf)).statusCode())
                .isEqualTo(303);
        runServiceAs(token).get("/api/companies/{c}/agents", company).then().statusCode(401);
        assertThat(admin.get(page).body()).contains("revoked");
    }

    @Test
    void operatorTokensAreMadeAndRevokedOnTheOperatorsPage() {
        Http operator = new Http(dashboard).with("Authorization", io.trimus.testing.TestOperator.HEADER);
        String name = Stack.unique("monitoring").replace(' ', '-');
        HttpResponse<String> made = operator.post("/tokens", Map.of("name", name));
        assertThat(made.statusCode()).isEqualTo(200);
        Matcher value = TOKEN.matcher(made.body());
        assertThat(value.find()).isTrue();
        String token = value.group(1);
        runServiceAs(token).get("/api/workers").then().statusCode(200);

        Matcher row = Pattern.compile("data-token=\"([0-9a-f-]{36})\"><td>" + Pattern.quote(name) + "<")
                .matcher(operator.get("/tokens").body());
        assertThat(row.find()).isTrue();
        assertThat(operator.post("/tokens/" + row.group(1) + "/revoke", Map.of()).statusCode()).isEqualTo(303);
        runServiceAs(token).get("/api/workers").then().statusCode(401);
    }

    private Http signedIn(String company, String role) {
        return new Http(dashboard).withSession(new Http(dashboard).signIn(Accounts.withPassword(company, role),
                Accounts.PASSWORD));
    }

    private static io.restassured.specification.RequestSpecification runServiceAs(String token) {
        return given().baseUri(Stack.config(SystemStack.RUN_SERVICE_KEY)).header("Authorization", "Bearer " + token);
    }
}
