package io.trimus.admin.rest.company;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.Cookie;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import io.trimus.admin.support.BackendStandIns;
import io.trimus.admin.support.Canaries;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The company page's "Canaries" panel against stand-ins of run-service and egress-service ({@link BackendStandIns}):
 * every status has its badge, a breached canary turns the page red with an alert naming the checks, "Run a canary now"
 * reaches egress-service as the caller (in a real Chromium, with the session's CSRF token) and is neither shown nor
 * allowed to a viewer, and an egress-service that is down is a sentence on a page that still shows.
 */
@QuarkusTest
@WithTestResource(BackendStandIns.class)
class CanaryPanelTest {
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TestHTTPResource("/")
    URL dashboard;

    @Test
    void everyStatusHasItsBadge() {
        String history = IntStream.range(0, 25).mapToObj(i -> Canaries.earlier(i % 2 == 0 ? "passed" : "failed",
                "2026-12-05T%02d:00:00Z".formatted(i % 24))).collect(Collectors.joining(","));
        Map<String, String> statuses = Map.of(
                "passed", Canaries.canary("%s", "passed", "scheduled", "2026-12-06T07:00:09Z", null,
                        Canaries.BLOCKED_NAME + "," + Canaries.ALLOWED_HOST, history),
                "failed", Canaries.canary("%s", "failed", "scheduled", "2026-12-06T07:00:09Z",
                        "the probe sandbox could not start: image trimus-canary:1 not found", "", ""),
                "running", Canaries.running("%s"));
        for (var status : statuses.entrySet()) {
            String company = company("Acme " + status.getKey());
            canary(company, status.getValue().replace("%s", company));
            String page = asAdmin().get("/companies/{id}", company).then().statusCode(200).extract().asString();
            assertThat(page).as(status.getKey())
                    .contains("canary-status canary-" + status.getKey() + "\" id=\"canary-status\">" + status.getKey())
                    .doesNotContain("page-head-breached").contains("Run a canary now");
        }
        String never = company("Acme never");
        assertThat(asAdmin().get("/companies/{id}", never).then().statusCode(200).extract().asString())
                .contains("canary-none\" id=\"canary-status\">never run")
                .contains("No canary has checked this company's sandbox network yet.");
    }

    @Test
    void aPassedCanaryListsItsChecksAndTwentyEarlierOnes() {
        String company = company("Acme checks");
        String history = IntStream.range(0, 25).mapToObj(i -> Canaries.earlier("passed",
                "2026-12-05T%02d:15:00Z".formatted(i % 24))).collect(Collectors.joining(","));
        // the schedule as Jackson writes a Duration by default (seconds) rather than ISO-8601: read either way
        canary(company, Canaries.canary(company, "passed", "scheduled", "2026-12-06T07:00:09Z", null,
                Canaries.BLOCKED_NAME + "," + Canaries.ALLOWED_HOST, history)
                .replace("\"interval\":\"PT15M\"", "\"interval\":900.000000000"));
        String page = asAdmin().get("/companies/{id}", company).then().statusCode(200).extract().asString();
        assertThat(page).contains("finished <time datetime=\"2026-12-06T07:00:09Z\">2026-12-06 07:00:09 UTC</time>")
                .contains("runs every 15 minutes")
                .contains("<code>unlisted_name</code>").contains("c1a2.canary.trimus.invalid").contains("NXDOMAIN")
                .contains("CONNECT api.github.com:443 via 172.30.0.1:3128").doesNotContain("got through");
        String earlier = page.substring(page.indexOf("id=\"canary-history\""));
        assertThat(earlier.substring(0, earlier.indexOf("</ol>")).split("<li>")).hasSize(20 + 1);
    }

    @Test
    void aBreachedCanaryTurnsThePageRedAndNamesTheChecksThatGotThrough() {
        String company = company("Acme breached");
        canary(company, Canaries.canary(company, "breached", "scheduled", "2026-12-06T07:00:09Z", null,
                Canaries.BLOCKED_NAME + "," + Canaries.OPEN_BRIDGE + "," + Canaries.ALLOWED_HOST, ""));
        String page = asAdmin().get("/companies/{id}", company).then().statusCode(200).extract().asString();
        assertThat(page).contains("class=\"page-head page-head-breached\"")
                .contains("<strong>A canary got through: bridge_route.</strong>")
                .contains("canary-breached\" id=\"canary-status\">breached")
                .contains("<tr class=\"canary-check breached\"><td><code>bridge_route</code>")
                .contains("<tr class=\"canary-check\"><td><code>unlisted_name</code>");
    }

    @Test
    void aViewerSeesNoRunButtonAndAForcedRunIsRefusedBeforeEgressServiceIsAsked() {
        String company = company("Acme viewer");
        String page = given().header("Authorization", "Bearer " + BackendStandIns.VIEWER).accept("text/html")
                .get("/companies/{id}", company).then().statusCode(200).extract().asString();
        assertThat(page).contains("id=\"canaries\"").doesNotContain("Run a canary now");
        given().header("Authorization", "Bearer " + BackendStandIns.VIEWER).contentType("application/x-www-form-urlencoded")
                .post("/companies/{id}/canary", company).then().statusCode(403);
        assertThat(calls()).noneMatch(c -> c.startsWith("POST /api/companies/" + company));
    }

    @Test
    void aSessionsRunWithoutItsCsrfTokenIsRefused() {
        String company = company("Acme csrf");
        // noFilters: without the test operator's Authorization that trimus-testing adds by default, the cookie counts
        String refusal = given().noFilters().cookie("trimus_session", BackendStandIns.ADMIN)
                .contentType("application/x-www-form-urlencoded").formParam("x", "y")
                .post("/companies/{id}/canary", company).then().statusCode(403).extract().asString();
        assertThat(refusal).contains("CSRF token");
        assertThat(calls()).noneMatch(c -> c.startsWith("POST /api/companies/" + company));
    }

    @Test
    void egressServiceDownIsASentenceOnAPageThatStillShows() {
        String company = company("Acme down");
        control("POST", "/_control/egress-down", "");
        try {
            String page = asAdmin().get("/companies/{id}", company).then().statusCode(200).extract().asString();
            assertThat(page).contains("<h1>Acme down</h1>").contains("Recent runs")
                    .contains("The canaries could not be read: egress-service is not reachable right now; try again in a moment.")
                    .doesNotContain("page-head-breached");
            assertThat(asAdmin().get("/companies").then().statusCode(200).extract().asString())
                    .contains("title=\"egress-service did not say\">unknown</span>");
        } finally {
            control("POST", "/_control/egress-up", "");
        }
    }

    @Test
    void theCompanyListShowsEachCompanysLatestCanary() {
        String breached = company("Acme list breached");
        canary(breached, Canaries.canary(breached, "breached", "scheduled", "2026-12-06T07:00:09Z", null,
                Canaries.OPEN_BRIDGE, ""));
        String list = asAdmin().get("/companies").then().statusCode(200).extract().asString();
        assertThat(list).contains("<a class=\"badge canary-status canary-breached\" href=\"/companies/" + breached
                + "#canaries\">breached");
    }

    @Test
    void theScoreFilterReachesEgressService() {
        String company = company("Acme score");
        String page = asAdmin().queryParam("min_score", "0.8").get("/companies/{id}/egress", company).then()
                .statusCode(200).extract().asString();
        assertThat(page).contains("<option value=\"0.8\" selected>≥ 0.8</option>");
        assertThat(calls()).anyMatch(c -> c.startsWith("GET /api/companies/" + company + "/egress/anomalies?")
                && c.contains("min_score=0.8"));
    }

    @Test
    void inChromiumRunACanaryNowAsksEgressServiceAsTheCallerAndTheRedPageClears() throws Exception {
        String company = company("Acme browser");
        canary(company, Canaries.canary(company, "breached", "scheduled", "2026-12-06T07:00:09Z", null,
                Canaries.BLOCKED_NAME + "," + Canaries.OPEN_BRIDGE + "," + Canaries.ALLOWED_HOST, ""));
        Files.createDirectories(SCREENSHOTS);
        Path home = Files.createDirectories(Path.of("target", "browser-home", "tmp").toAbsolutePath()).getParent();
        Map<String, String> env = Map.of("HOME", home.toString(), "TMPDIR", home.resolve("tmp").toString(),
                "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        try (Playwright playwright = Playwright.create(new Playwright.CreateOptions().setEnv(env));
             Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                     .setExecutablePath(Path.of("/usr/lib/chromium/chromium")).setHeadless(true).setEnv(env)
                     .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                             "--disable-component-update", "--disable-sync", "--no-first-run",
                             "--disable-dev-shm-usage")));
             BrowserContext context = browser.newContext(new Browser.NewContextOptions()
                     .setViewportSize(1280, 900).setBaseURL(dashboard.toString()))) {
            context.addCookies(List.of(new Cookie("trimus_session", BackendStandIns.ADMIN)
                    .setDomain(dashboard.getHost()).setPath("/").setHttpOnly(true)));
            context.setDefaultTimeout(15_000);
            Page page = context.newPage();
            page.navigate("/companies/" + company);
            assertThat(page.locator("#company-head")).hasClass("page-head page-head-breached");
            assertThat(page.locator("#canary-alert")).isVisible();
            assertThat(page.locator("#canary-alert")).containsText("A canary got through: bridge_route");
            assertThat(page.locator("tr.breached")).containsText("172.30.0.1:22");
            page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("company-canary-breached.png")));

            page.getByText("Run a canary now").click();

            assertThat(page.locator("#canary-status")).hasText("running");
            assertThat(page.locator(".canary-latest")).containsText("· runs every 15 minutes");
            assertThat(page.locator("#company-head")).hasClass("page-head");
            assertThat(page.locator("#canary-alert")).hasCount(0);
            assertThat(calls()).contains("POST /api/companies/" + company + "/egress/canary Bearer "
                    + BackendStandIns.ADMIN);

            // the running panel asks again every few seconds; the result it finds turns the page red again
            canary(company, Canaries.canary(company, "breached", "manual", "2026-12-06T07:01:00Z", null,
                    Canaries.OPEN_BRIDGE, ""));
            assertThat(page.locator("#canary-status")).hasText("breached",
                    new LocatorAssertions.HasTextOptions().setTimeout(15_000)); // the panel asks every 5 s
            assertThat(page.locator("#company-head")).hasClass("page-head page-head-breached");
            assertThat(page.locator("#canary-alert")).containsText("A canary got through: bridge_route");
        }
    }

    private static RequestSpecification asAdmin() {
        return given().header("Authorization", "Bearer " + BackendStandIns.ADMIN).accept("text/html");
    }

    private static String company(String name) {
        String id = UUID.randomUUID().toString();
        control("PUT", "/_control/company/" + id, name);
        return id;
    }

    private static void canary(String company, String json) {
        control("PUT", "/_control/canary/" + company, json);
    }

    private static List<String> calls() {
        return List.of(given().baseUri(standIn()).get("/_control/calls").then().statusCode(200).extract().asString()
                .split("\n"));
    }

    private static void control(String method, String path, String body) {
        given().baseUri(standIn()).body(body).request(method, path).then().statusCode(204);
    }

    private static String standIn() {
        return ConfigProvider.getConfig().getValue(BackendStandIns.CONTROL_KEY, String.class);
    }
}
