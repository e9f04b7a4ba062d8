package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operators page ({@code /operators}) end to end, signed in as an operator account: the accounts listed, one added
 * by email (its setup link shown once, and it works), one removed; the last operator account cannot be removed and the
 * page says why; anyone else gets 403 and no link to it.
 */
@ExtendWith(SystemStack.class)
class DashboardOperatorsTest {
    private static final Pattern SETUP_URL = Pattern.compile("id=\"setup-url\">([^<]+)<");

    URI dashboard = SystemStack.dashboard();

    @Test
    void anOperatorAddsAnOperatorWhoSignsInWithTheSetupLinkAndRemovesIt() {
        String self = operatorAccount();
        Http operator = signedIn(self);
        HttpResponse<String> page = operator.get("/operators");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("href=\"/operators\"").contains("data-email=\"" + self + "\"");
        String csrf = Http.csrf(page);
        String email = Accounts.newEmail();

        HttpResponse<String> added = operator.post("/operators", Map.of("email", email, "_csrf", csrf));
        assertThat(added.statusCode()).isEqualTo(200);
        assertThat(added.body()).contains("shown only now");
        Matcher link = SETUP_URL.matcher(added.body());
        assertThat(link.find()).as("the setup link is on the answer page").isTrue();
        Accounts.setPassword(URI.create(link.group(1).replace("&#x2F;", "/")), Accounts.PASSWORD);
        assertThat(operator.get("/operators").body()).as("shown once").doesNotContain("id=\"setup-url\"")
                .contains("data-email=\"" + email + "\"");
        assertThat(operators()).contains(email);
        assertThat(signedIn(email).get("/operators").statusCode()).as("the new operator's own view").isEqualTo(200);

        assertThat(operator.post("/operators/remove", Map.of("email", email, "_csrf", csrf)).statusCode())
                .isEqualTo(303);
        assertThat(operator.get("/operators").body()).doesNotContain("data-email=\"" + email + "\"");
        assertThat(operators()).doesNotContain(email);
    }

    @Test
    void someoneWhoIsNoOperatorGets403AndNoLinkAndCannotAddOne() {
        String company = Stack.createCompany(Stack.unique("NotOperators"));
        Http admin = signedIn(Accounts.withPassword(company, "admin"));
        HttpResponse<String> home = admin.get("/companies/" + company);
        assertThat(home.statusCode()).isEqualTo(200);
        assertThat(home.body()).doesNotContain("href=\"/operators\"");
        assertThat(admin.get("/operators").statusCode()).isEqualTo(403);

        String email = Accounts.newEmail();
        HttpResponse<String> forged = admin.post("/operators", Map.of("email", email, "_csrf", Http.csrf(home)));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(operators()).doesNotContain(email);
    }

    @Test
    void theLastOperatorAccountCannotBeRemovedAndThePageSaysWhy() {
        String self = operatorAccount();
        Http operator = signedIn(self);
        String csrf = Http.csrf(operator.get("/operators"));
        List<String> others = operators().stream().filter(e -> !e.equals(self)).toList();
        try {
            others.forEach(e -> Stack.runService().delete("/api/operators/{e}", e).then().statusCode(204));

            HttpResponse<String> refused = operator.post("/operators/remove", Map.of("email", self, "_csrf", csrf));
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).contains("id=\"operator-error\"")
                    .contains(self + " is the last operator account: make another operator first");
            assertThat(operators()).containsExactly(self);
        } finally {
            // other tests' operator accounts get their role back
            others.forEach(e -> Stack.runService().put("/api/operators/{e}", e).then().statusCode(200));
        }
    }

    /** A new operator account with a password, made by the test operator through run-service. */
    private static String operatorAccount() {
        String email = Accounts.newEmail();
        String url = Stack.runService().put("/api/operators/{e}", email).then().statusCode(200).extract().path("setup_url");
        Accounts.setPassword(URI.create(url), Accounts.PASSWORD);
        return email;
    }

    private static List<String> operators() {
        return Stack.runService().get("/api/operators").then().statusCode(200).extract().jsonPath()
                .getList("operators.email", String.class);
    }

    private Http signedIn(String email) {
        return new Http(dashboard).withSession(new Http(dashboard).signIn(email, Accounts.PASSWORD));
    }
}
