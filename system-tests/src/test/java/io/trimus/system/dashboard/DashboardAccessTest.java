package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may open what on the dashboard, over plain HTTP against the real backends: the sign-in cookie and its
 * attributes, bearer tokens, redirects to the sign-in page, CSRF tokens and the Origin check on every change, sign-out,
 * and roles (hidden actions, refused ones, operator pages, other companies); and a session with its CSRF token taken
 * from one replica to another.
 * <p>
 * The tests run side by side (each method {@link ExecutionMode#CONCURRENT}; the class is not, so no other class runs
 * meanwhile): each makes its own companies, accounts and sessions, none switches a backend off or reads anything
 * another one writes, and most of their time is waiting on the backends.
 */
@ExtendWith(SystemStack.class)
class DashboardAccessTest {
    URI dashboard = SystemStack.dashboard();

    private Http anonymous() {
        return new Http(dashboard);
    }

    /** Where a redirect leads on this dashboard: its path and query (the answer may spell it absolute). */
    private String location(HttpResponse<String> answer) {
        URI to = dashboard.resolve(answer.headers().firstValue("Location").orElseThrow());
        assertThat(to.getHost() + ":" + to.getPort()).isEqualTo(dashboard.getHost() + ":" + dashboard.getPort());
        return to.getRawPath() + (to.getRawQuery() == null ? "" : "?" + to.getRawQuery());
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void withoutACredentialBrowsersAreSentToSignInAndScriptsGet401() {
        HttpResponse<String> page = anonymous().get("/companies?after=");
        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(location(page)).isEqualTo("/login?next=%2Fcompanies%3Fafter%3D");
        HttpResponse<String> script = anonymous().with("Accept", "*/*").get("/");
        assertThat(script.statusCode()).isEqualTo(401);
        assertThat(script.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("Bearer"));
        assertThat(anonymous().with("Authorization", "Bearer trimus-no-such-token-000000000000").get("/")
                .statusCode()).isEqualTo(401);
        // the sign-in and setup pages, static files and health stay open
        assertThat(anonymous().get("/login").statusCode()).isEqualTo(200);
        assertThat(anonymous().get("/setup").statusCode()).isEqualTo(200);
        assertThat(anonymous().get("/trimus.css").statusCode()).isEqualTo(200);
        assertThat(anonymous().get("/q/health").statusCode()).isEqualTo(200);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void signingInSetsAStrictHttpOnlyCookieThatOpensThePages() {
        String company = Stack.createCompany(Stack.unique("Cookie"));
        String email = Accounts.withPassword(company, "viewer");

        HttpResponse<String> answer = anonymous().post("/login", Map.of("email", email.toUpperCase(),
                "password", Accounts.PASSWORD, "next", "/companies/" + company));
        assertThat(answer.statusCode()).isEqualTo(303);
        assertThat(location(answer)).isEqualTo("/companies/" + company);
        String cookie = Http.setCookie(answer).orElseThrow();
        assertThat(cookie).contains("; HttpOnly").contains("; SameSite=Strict").contains("; Path=/")
                .containsPattern("; Max-Age=\\d+").doesNotContain("Secure");
        String session = Http.sessionCookie(answer).orElseThrow();
        assertThat(anonymous().withSession(session).get("/companies/" + company).statusCode()).isEqualTo(200);

        // behind a TLS proxy the cookie is Secure
        HttpResponse<String> behindTls = anonymous().with("X-Forwarded-Proto", "https").post("/login",
                Map.of("email", email, "password", Accounts.PASSWORD));
        assertThat(Http.setCookie(behindTls)).hasValueSatisfying(c -> assertThat(c).contains("; Secure"));
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aWrongPasswordAndAnUnknownEmailGetTheSameSentence() {
        String company = Stack.createCompany(Stack.unique("Wrong"));
        String email = Accounts.withPassword(company, "viewer");
        HttpResponse<String> wrongPassword = anonymous().post("/login", Map.of("email", email, "password",
                "not the password at all"));
        HttpResponse<String> unknown = anonymous().post("/login", Map.of("email", Accounts.newEmail(), "password",
                Accounts.PASSWORD));
        for (HttpResponse<String> answer : java.util.List.of(wrongPassword, unknown)) {
            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(answer.body()).contains("Wrong email or password.");
            assertThat(Http.setCookie(answer)).isEmpty();
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void afterSignInOnlySameSitePathsAreFollowed() {
        String company = Stack.createCompany(Stack.unique("Next"));
        String email = Accounts.withPassword(company, "viewer");
        for (String next : new String[]{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"}) {
            HttpResponse<String> answer = anonymous().post("/login", Map.of("email", email, "password",
                    Accounts.PASSWORD, "next", next));
            assertThat(location(answer)).as(next).isEqualTo("/");
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aChangeWithoutTheCsrfTokenIsRefusedAndChangesNothing() {
        String company = Stack.createCompany(Stack.unique("Csrf"));
        Stack.setAllowlist(company, "api.github.com");
        Http admin = anonymous().withSession(anonymous().signIn(Accounts.withPassword(company, "admin"),
                Accounts.PASSWORD));
        String token = Http.csrf(admin.get("/companies/" + company + "/egress"));

        HttpResponse<String> without = admin.post("/companies/" + company + "/egress/allowlist/add",
                Map.of("entry", "evil.example"));
        assertThat(without.statusCode()).isEqualTo(403);
        assertThat(without.body()).contains("CSRF token");
        HttpResponse<String> wrong = admin.post("/companies/" + company + "/egress/allowlist/add",
                Map.of("entry", "evil.example", "_csrf", token.substring(1) + "A"));
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(admin.with("X-CSRF-Token", "nope").with("HX-Request", "true")
                .post("/companies/" + company + "/egress/policy", Map.of("mode", "report")).statusCode())
                .isEqualTo(403);
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");
        assertThat(Stack.egressService().get("/api/companies/{c}/egress/policy", company).then().statusCode(200)
                .extract().<String>path("mode")).isEqualTo("enforce");

        // the same changes with the page's token: as a form field, and as htmx's header
        assertThat(admin.post("/companies/" + company + "/egress/allowlist/add",
                Map.of("entry", "pypi.org", "_csrf", token)).statusCode()).isEqualTo(303);
        assertThat(admin.with("X-CSRF-Token", token).with("HX-Request", "true")
                .post("/companies/" + company + "/egress/policy", Map.of("mode", "report")).statusCode())
                .isEqualTo(200);
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com", "pypi.org");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aSessionAndCsrfTokenAnotherReplicaIssuedAreAcceptedHere() throws Exception {
        String company = Stack.createCompany(Stack.unique("Replica"));
        Stack.setAllowlist(company, "api.github.com");
        String email = Accounts.withPassword(company, "admin");
        // what any replica's sign-in form gets from run-service and puts in the cookie
        String session = Stack.runService().body(Map.of("email", email, "password", Accounts.PASSWORD))
                .post("/api/sessions").then().statusCode(201).extract().path("token");
        // the token another replica's page carries: computed from the session and nothing of any process
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(session.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String otherReplicasToken = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(mac.doFinal("trimus-dashboard-csrf-v1".getBytes(StandardCharsets.US_ASCII)));
        Http admin = anonymous().withSession(session);

        HttpResponse<String> page = admin.get("/companies/" + company + "/egress");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(Http.csrf(page)).isEqualTo(otherReplicasToken);
        assertThat(admin.post("/companies/" + company + "/egress/allowlist/add",
                Map.of("entry", "pypi.org", "_csrf", otherReplicasToken)).statusCode()).isEqualTo(303);
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com", "pypi.org");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aChangeFromAForeignOriginIsRefusedEvenWithTheTokenAndChangesNothing() {
        String company = Stack.createCompany(Stack.unique("Origin"));
        Stack.setAllowlist(company, "api.github.com");
        Http admin = anonymous().withSession(anonymous().signIn(Accounts.withPassword(company, "admin"),
                Accounts.PASSWORD));
        String token = Http.csrf(admin.get("/companies/" + company + "/egress"));
        Map<String, String> form = Map.of("entry", "evil.example", "_csrf", token);
        String path = "/companies/" + company + "/egress/allowlist/add";

        HttpResponse<String> foreign = admin.with("Origin", "http://evil.example").post(path, form);
        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(foreign.body()).contains("another site");
        assertThat(admin.with("Origin", "null").post(path, form).statusCode()).isEqualTo(403);
        assertThat(admin.with("Referer", "http://evil.example/page").post(path, form).statusCode()).isEqualTo(403);
        // a bearer caller is held to the same rule
        assertThat(anonymous().with("Authorization", io.trimus.testing.TestOperator.HEADER)
                .with("Origin", "http://evil.example").post(path, Map.of("entry", "evil.example")).statusCode())
                .isEqualTo(403);
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");

        String own = "http://" + dashboard.getHost() + ":" + dashboard.getPort();
        assertThat(admin.with("Origin", own).post(path, Map.of("entry", "pypi.org", "_csrf", token)).statusCode())
                .isEqualTo(303);
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com", "pypi.org");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void signingOutEndsTheSessionEverywhere() {
        String company = Stack.createCompany(Stack.unique("Logout"));
        String session = anonymous().signIn(Accounts.withPassword(company, "viewer"), Accounts.PASSWORD);
        Http viewer = anonymous().withSession(session);
        String token = Http.csrf(viewer.get("/"));
        assertThat(viewer.post("/logout", Map.of()).statusCode()).as("without the CSRF token").isEqualTo(403);
        assertThat(viewer.get("/").statusCode()).isEqualTo(200);

        HttpResponse<String> out = viewer.post("/logout", Map.of("_csrf", token));
        assertThat(out.statusCode()).isEqualTo(303);
        assertThat(Http.setCookie(out)).hasValueSatisfying(c -> assertThat(c).contains("Max-Age=0"));

        HttpResponse<String> again = viewer.get("/companies/" + company);
        assertThat(again.statusCode()).isEqualTo(303);
        assertThat(location(again)).startsWith("/login");
        assertThat(Http.setCookie(again)).hasValueSatisfying(c -> assertThat(c).contains("Max-Age=0"));
        given().header("Authorization", "Bearer " + session).baseUri(Stack.config(SystemStack.RUN_SERVICE_KEY))
                .get("/api/me").then().statusCode(401);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void aViewerSeesNoAdminActionsAndIsRefusedWhenItForcesThem() {
        String company = Stack.createCompany(Stack.unique("Viewer"));
        Stack.setAllowlist(company, "api.github.com");
        Http viewer = anonymous().withSession(anonymous().signIn(Accounts.withPassword(company, "viewer"),
                Accounts.PASSWORD));
        HttpResponse<String> egress = viewer.get("/companies/" + company + "/egress");
        assertThat(egress.statusCode()).isEqualTo(200);
        assertThat(egress.body()).contains("api.github.com").doesNotContain("/egress/allowlist/add")
                .doesNotContain("/egress/allowlist/remove").doesNotContain("Save mode")
                .contains("Only the company's admins change the allowlist");
        assertThat(viewer.get("/companies/" + company).body()).doesNotContain("/members\"").doesNotContain("/tokens\"");
        assertThat(viewer.get("/").body()).doesNotContain("href=\"/anomalies\"").doesNotContain("href=\"/tokens\"")
                .doesNotContain("/live/anomalies");

        String token = Http.csrf(egress);
        HttpResponse<String> forced = viewer.post("/companies/" + company + "/egress/allowlist/add",
                Map.of("entry", "evil.example", "_csrf", token));
        assertThat(forced.statusCode()).isEqualTo(403);
        assertThat(forced.body()).contains("You cannot do this");
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");
        assertThat(viewer.get("/companies/" + company + "/members").statusCode()).isEqualTo(403);
        assertThat(viewer.get("/companies/" + company + "/tokens").statusCode()).isEqualTo(403);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void theLiveRunFeedCarriesOnlyTheCallersOwnCompaniesRuns() throws Exception {
        String own = Stack.createCompany(Stack.unique("Feed"));
        String other = Stack.createCompany(Stack.unique("Foreign"));
        String session = anonymous().signIn(Accounts.withPassword(own, "viewer"), Accounts.PASSWORD);
        java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        var request = java.net.http.HttpRequest.newBuilder(dashboard.resolve("/live/runs"))
                .header("Accept", "text/event-stream").header("Cookie", "trimus_session=" + session).build();
        var stream = java.net.http.HttpClient.newHttpClient().sendAsync(request,
                java.net.http.HttpResponse.BodyHandlers.fromLineSubscriber(new java.util.concurrent.Flow.Subscriber<String>() {
                    @Override
                    public void onSubscribe(java.util.concurrent.Flow.Subscription subscription) {
                        subscription.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(String line) {
                        lines.add(line);
                    }

                    @Override
                    public void onError(Throwable throwable) {
                    }

                    @Override
                    public void onComplete() {
                    }
                }));
        try {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> lines.stream().anyMatch(l -> l.contains("stream open")));
            Map<String, Object> noImage = Map.of("image", "trimus-test/no-such-image:never");
            String foreignRun = Stack.startRun(other, Stack.createAgent(other, "idle", "docker", noImage), Map.of());
            Stack.awaitFinished(other, foreignRun);
            String ownRun = Stack.startRun(own, Stack.createAgent(own, "idle", "docker", noImage), Map.of());
            String status = Stack.awaitFinished(own, ownRun);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> lines.stream().anyMatch(l -> l.startsWith("data:") && l.contains(ownRun + " " + status)));
            assertThat(lines).noneMatch(l -> l.contains(foreignRun));
        } finally {
            stream.cancel(true);
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    void operatorPagesAndOtherCompaniesAreClosedToCompanyPeople() {
        String own = Stack.createCompany(Stack.unique("Own"));
        String other = Stack.createCompany(Stack.unique("Other"));
        Http admin = anonymous().withSession(anonymous().signIn(Accounts.withPassword(own, "admin"),
                Accounts.PASSWORD));
        assertThat(admin.get("/anomalies").statusCode()).isEqualTo(403);
        assertThat(admin.get("/tokens").statusCode()).isEqualTo(403);
        assertThat(admin.with("Accept", "text/event-stream").get("/live/anomalies").statusCode()).isEqualTo(403);
        assertThat(admin.get("/companies/" + other).statusCode()).isEqualTo(404);
        assertThat(admin.get("/companies/" + other + "/egress").statusCode()).isEqualTo(404);
        assertThat(admin.with("Accept", "text/event-stream").get("/companies/" + other + "/egress/live")
                .statusCode()).isEqualTo(404);
        assertThat(admin.get("/companies/" + other + "/members").statusCode()).isEqualTo(404);

        HttpResponse<String> companies = admin.get("/companies");
        assertThat(companies.body()).contains(own).doesNotContain(other);
        // the operator (bearer) has the operator pages; the admin's switcher has its own company only
        String operatorPage = anonymous().with("Authorization", io.trimus.testing.TestOperator.HEADER).get("/")
                .body();
        assertThat(operatorPage).contains("href=\"/anomalies\"").contains("href=\"/tokens\"");
        assertThat(admin.get("/").body()).contains("/companies/" + own + "\"").doesNotContain(other);
    }
}
