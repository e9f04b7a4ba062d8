package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import io.trimus.testing.TestOperator;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The audit pages end to end: a company's changes made through run-service's and egress-service's APIs are listed
 * with their actor on the company's audit page for its admins and operators, escaped, page by page; viewers, other
 * companies' admins and (for {@code /audit}) company admins are refused and see no record.
 */
@ExtendWith(SystemStack.class)
class DashboardAuditTest {
    private static final String OPERATOR = "bootstrap (TRIMUS_BOOTSTRAP_OPERATOR_TOKEN)";
    private static final Pattern ROW = Pattern.compile("<tr data-record=\"");

    URI dashboard = SystemStack.dashboard();

    @Test
    void aCompanysChangesAreListedWithTheirActorForItsAdminsAndOperators() {
        String name = Stack.unique("Audited");
        String company = Stack.createCompany(name);
        Stack.setAllowlist(company, "api.github.com");
        String email = Accounts.newEmail();
        Accounts.setupLink(company, email, "member");
        String admin = token(company, "<script>alert(1)</script>", "admin");
        String page = "/companies/" + company + "/audit";

        // egress-service's records reach run-service's log through Kafka, a moment later
        String operatorView = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> given().get(page).then().statusCode(200).extract().asString(),
                        body -> body.contains("allowlist.replaced"));
        assertThat(operatorView).contains("Audit log of " + name)
                .contains("company.created").contains("member.put").contains("member " + email)
                .contains("role=member").contains("token.created").contains("added=[&quot;api.github.com&quot;]")
                .contains("<span class=\"muted\">token</span> " + OPERATOR)
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert");
        assertThat(operatorView.indexOf("token.created")).as("newest first")
                .isLessThan(operatorView.indexOf("member.put"));
        assertThat(operatorView.indexOf("member.put")).isLessThan(operatorView.indexOf("company.created"));

        HttpResponse<String> asAdmin = as(admin).get(page);
        assertThat(asAdmin.statusCode()).isEqualTo(200);
        assertThat(asAdmin.body()).contains("token.created").contains("member " + email);
        assertThat(as(admin).get("/companies/" + company).body()).contains("href=\"" + page + "\"");
    }

    @Test
    void viewersAndOtherCompaniesAdminsAreRefusedAndSeeNoRecord() {
        String company = Stack.createCompany(Stack.unique("Closed"));
        String email = Accounts.newEmail();
        Accounts.setupLink(company, email, "viewer");
        String page = "/companies/" + company + "/audit";
        Http viewer = as(token(company, "reader", "viewer"));
        Http member = as(token(company, "worker", "member"));
        String other = Stack.createCompany(Stack.unique("Elsewhere"));
        Http foreignAdmin = as(token(other, "foreign-admin", "admin"));

        for (Http refused : new Http[] {viewer, member, foreignAdmin}) {
            HttpResponse<String> answer = refused.get(page);
            assertThat(answer.statusCode()).isIn(403, 404);
            assertThat(answer.body()).doesNotContain("member.put").doesNotContain(email)
                    .doesNotContain("company.created").doesNotContain("data-record");
        }
        assertThat(viewer.get(page).statusCode()).isEqualTo(403);
        assertThat(viewer.get("/companies/" + company).body()).doesNotContain("href=\"" + page + "\"");
    }

    @Test
    void theWholeLogIsTheOperatorsWithTheCompanyAndThePlatformsOwnRecords() {
        String name = Stack.unique("Platform-wide");
        String company = Stack.createCompany(name);
        String operatorToken = Stack.unique("audit-ops").replace(' ', '-');
        Stack.runService().body(Map.of("name", operatorToken)).post("/api/tokens").then().statusCode(201);

        Http operator = new Http(dashboard).with("Authorization", TestOperator.HEADER);
        HttpResponse<String> all = operator.get("/audit");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.body()).contains("<a href=\"/companies/" + company + "\">" + name + "</a>")
                .contains("token " + operatorToken).contains("<span class=\"muted\">platform</span>");
        assertThat(operator.get("/").body()).contains("href=\"/audit\"");

        Http admin = as(token(company, "local-admin", "admin"));
        HttpResponse<String> refused = admin.get("/audit");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("data-record").doesNotContain(operatorToken);
        assertThat(admin.get("/").body()).doesNotContain("href=\"/audit\"");
    }

    @Test
    void olderRecordsAreOnTheNextPageByTheLastRecordsId() {
        String company = Stack.createCompany(Stack.unique("Busy"));
        for (int i = 0; i < 51; i++) {
            token(company, "ci-" + i, "viewer");
        }
        String page = "/companies/" + company + "/audit";
        String newest = given().get(page).then().statusCode(200).extract().asString();
        assertThat(ROW.matcher(newest).results().count()).isEqualTo(50);
        assertThat(newest).contains("token ci-50").doesNotContain("company.created");
        Matcher older = Pattern.compile("href=\"(" + Pattern.quote(page) + "\\?before=[0-9a-f-]{36})\">Older<")
                .matcher(newest);
        assertThat(older.find()).isTrue();

        String second = given().get(older.group(1)).then().statusCode(200).extract().asString();
        assertThat(ROW.matcher(second).results().count()).isEqualTo(2);
        assertThat(second).contains("token ci-0").contains("company.created").doesNotContain(">Older<")
                .contains("href=\"" + page + "\">Newest<");
    }

    /** A company token made through run-service's API by the test operator; returns its value. */
    private static String token(String company, String name, String role) {
        return Stack.runService().body(Map.of("name", name, "role", role))
                .post("/api/companies/{c}/tokens", company).then().statusCode(201).extract().path("token");
    }

    private Http as(String token) {
        return new Http(dashboard).with("Authorization", "Bearer " + token);
    }
}
