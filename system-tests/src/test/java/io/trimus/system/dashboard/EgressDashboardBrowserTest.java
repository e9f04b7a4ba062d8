package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.trimus.system.dashboard.EgressRecords.Conn;
import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14 on the dashboard, in a real headless Chromium against the real backends: a run's network record, the
 * hourly egress charts, report mode with "would have been denied" rows offered for the allowlist, and a denials
 * table that fits a 1280 px wide window. Everything comes from the real egress-service: its connection records are
 * seeded in its table and its anomalies published on its topic ({@link EgressRecords}), its policy set through its API.
 */
@ExtendWith(SystemStack.class)
class EgressDashboardBrowserTest {
    private static Chromium chromium;

    URL dashboard = SystemStack.dashboardUrl();

    private BrowserContext context;

    @BeforeAll
    static void launch() {
        chromium = Chromium.launch();
    }

    @AfterAll
    static void close() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @AfterEach
    void closeContext() {
        if (context != null) {
            context.close();
        }
    }

    private Page open(int width, int height) {
        // these tests are about the pages: the test operator's token, as a script would send it
        context = chromium.context(dashboard, width, height, true);
        return context.newPage();
    }

    @Test
    void theRunPageListsEachHostTheRunTalkedToWithItsBytes() {
        String company = Stack.createCompany(Stack.unique("Talkative"));
        String agent = Stack.createAgent(company, "caller", "docker", Map.of("image", "trimus-test/no-such-image:never"));
        String run = Stack.startRun(company, agent, Map.of());
        String quiet = Stack.startRun(company, agent, Map.of());
        Instant at = Instant.now().minusSeconds(60);
        // 41,984 bytes out and 1,258,291 in over three connections; the same host of another run is not this run's
        EgressRecords.record(company, run, List.of(
                Conn.allowed("api.anthropic.com", 443, 13_995, 419_430, at).swapped("{\"ANTHROPIC_API_KEY\": 2}"),
                Conn.allowed("api.anthropic.com", 443, 13_995, 419_430, at.plusSeconds(1))
                        .swapped("{\"ANTHROPIC_API_KEY\": 1}"),
                Conn.allowed("api.anthropic.com", 443, 13_994, 419_431, at.plusSeconds(2)),
                Conn.refused("exfil.<b>evil</b>.test", 8443, EgressAnomaly.PROXY_NOT_ALLOWLISTED, at.plusSeconds(3)),
                Conn.refused("exfil.<b>evil</b>.test", 8443, EgressAnomaly.PROXY_NOT_ALLOWLISTED, at.plusSeconds(4))));
        String other = Stack.startRun(company, agent, Map.of());
        EgressRecords.record(company, other, List.of(Conn.allowed("api.anthropic.com", 443, 1, 1, at)));
        Page page = open(1280, 900);

        page.navigate("/companies/" + company + "/runs/" + run);
        Locator lines = page.locator("#network-hosts li");
        assertThat(lines).hasText(new String[]{
                "api.anthropic.com:443 · 3 connections · 41 KB out / 1.2 MB in",
                "exfil.<b>evil</b>.test:8443 · 2 connections · 0 B out / 0 B in · 2 refused"});
        assertThat(page.locator("#network b")).hasCount(0);
        assertThat(page.locator("#network-totals")).containsText("5 connections in total (3 allowed, 2 refused)");
        assertThat(page.locator("#masked-secrets li")).hasText(new String[]{
                "ANTHROPIC_API_KEY → api.anthropic.com · 3 requests swapped"});
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("run-network.png"))
                .setFullPage(true));

        page.navigate("/companies/" + company + "/runs/" + quiet);
        assertThat(page.locator("#network")).containsText("No network connections recorded");
        assertThat(page.locator("#masked-secrets")).hasCount(0);
    }

    @Test
    void theEgressPageAndTheOverviewChartAllowedConnectionsAndDenialsPerHour() {
        String name = Stack.unique("Charted");
        String company = Stack.createCompany(name);
        String run = Stack.startRun(company, Stack.createAgent(company, "charted", "docker",
                Map.of("image", "trimus-test/no-such-image:never")), Map.of());
        // hours no other test writes to, far enough back that a new hour starting during the test keeps them in view
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(19, ChronoUnit.HOURS);
        Instant calm = hour.minus(2, ChronoUnit.HOURS);
        List<Conn> connections = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            connections.add(Conn.allowed("registry.npmjs.org", 443, 900, 52_000, hour.plusSeconds(60L * i)));
        }
        for (int i = 0; i < 20; i++) {
            connections.add(Conn.allowed("api.github.com", 443, 700, 9_000, calm.plusSeconds(90L * i)));
        }
        // refused connections are no allowed ones; their denials are the anomalies below
        connections.add(Conn.refused("exfil.test", 8443, EgressAnomaly.PROXY_NOT_ALLOWLISTED, hour.plusSeconds(30)));
        EgressRecords.record(company, run, connections);
        EgressRecords.publish(
                EgressRecords.anomaly(company, run, "exfil.test:8443", "CONNECT", EgressAnomaly.PROXY_NOT_ALLOWLISTED,
                        6, hour.plus(20, ChronoUnit.MINUTES), true),
                EgressRecords.anomaly(company, run, "tracker.test", "A", EgressAnomaly.NOT_ALLOWLISTED, 4,
                        hour.plus(50, ChronoUnit.MINUTES), true),
                // what report mode let through is counted among the allowed, never as a denial
                EgressRecords.anomaly(company, run, "let-through.test", "A", EgressAnomaly.NOT_ALLOWLISTED, 7,
                        hour.plus(40, ChronoUnit.MINUTES), false));
        // another company's figures of the same hour: on the overview's chart, not on this company's
        String neighbour = Stack.createCompany(Stack.unique("Neighbour"));
        String neighbourRun = Stack.startRun(neighbour, Stack.createAgent(neighbour, "next door", "docker",
                Map.of("image", "trimus-test/no-such-image:never")), Map.of());
        EgressRecords.record(neighbour, neighbourRun, List.of(
                Conn.allowed("pypi.org", 443, 1, 1, hour.plusSeconds(5)),
                Conn.allowed("pypi.org", 443, 1, 1, hour.plusSeconds(6))));
        EgressRecords.publish(EgressRecords.anomaly(neighbour, null, "denied.neighbour.test", "A",
                EgressAnomaly.NOT_ALLOWLISTED, 3, hour.plus(10, ChronoUnit.MINUTES), true));
        Page page = open(1280, 900);

        page.navigate("/companies/" + company + "/egress");
        Locator chart = page.locator("svg#egress-chart");
        assertThat(chart).isVisible();
        assertThat(chart).hasAttribute("role", "img");
        assertThat(chart.locator("title").first()).hasText("Egress of " + name + ", last 24 hours");
        assertThat(chart.locator("rect.bar.allowed")).hasCount(24);
        assertThat(chart.locator("rect.bar.denied")).hasCount(24);
        Locator busiest = chart.locator("rect.bar.allowed[data-hour='" + hour + "']");
        assertThat(busiest).hasAttribute("data-value", "40");
        assertThat(chart.locator("rect.bar.denied[data-hour='" + hour + "']")).hasAttribute("data-value", "10");
        // the axis ends at 50: 40 of 50 is 80 % of the plot's height, 20 is half of that
        double full = Double.parseDouble(busiest.getAttribute("height"));
        double half = Double.parseDouble(chart.locator("rect.bar.allowed[data-hour='"
                + hour.minus(2, ChronoUnit.HOURS) + "']").getAttribute("height"));
        assertThat(half * 2).isCloseTo(full, org.assertj.core.data.Offset.offset(0.2));
        assertThat(busiest.boundingBox().height).isGreaterThan(50);
        assertThat(chart.locator(".legend")).containsText("Allowed connections");
        assertThat(chart.locator(".legend")).containsText("Denials");
        assertThat(page.locator(".chart-card figcaption")).containsText("60 allowed connections and 10 denials");

        page.navigate("/");
        assertThat(page.locator("svg#egress-chart")).isVisible();
        assertThat(page.locator("svg#egress-chart rect.bar.denied[data-hour='" + hour + "']"))
                .hasAttribute("data-value", "13");
        assertThat(page.locator("svg#egress-chart rect.bar.allowed[data-hour='" + hour + "']"))
                .hasAttribute("data-value", "42");
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("overview-chart.png"))
                .setFullPage(true));
    }

    @Test
    void reportModeIsSwitchedOnAndItsWouldBeDenialsAreAddedToTheAllowlistOnce() {
        String company = Stack.createCompany(Stack.unique("Onboarding"));
        Stack.setAllowlist(company, "api.github.com");
        Instant now = Instant.now();
        EgressRecords.publish(
                EgressRecords.anomaly(company, null, "pypi.reported.test", "A", EgressAnomaly.NOT_ALLOWLISTED, 1, now,
                        false),
                EgressRecords.anomaly(company, null, "denied.enforced.test", "A", EgressAnomaly.NOT_ALLOWLISTED, 1, now,
                        true));
        Page page = open(1280, 900);
        page.navigate("/companies/" + company + "/egress");
        assertThat(page.locator("#policy-mode")).containsText("enforce");

        page.getByLabel("Report: let them through and record them").check();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save mode")).click();
        assertThat(page.locator("#policy [role=status]")).containsText("Report mode");
        assertThat(page.locator("#policy-mode")).containsText("report");
        page.reload();
        assertThat(page.locator("#policy-mode")).containsText("report");
        assertThat(Stack.egressService().get("/api/companies/{c}/egress/policy", company).then().statusCode(200)
                .extract().<String>path("mode")).isEqualTo("report");

        Locator reported = page.locator("tr.denial").filter(new Locator.FilterOptions().setHasText("pypi.reported.test"));
        Locator enforced = page.locator("tr.denial").filter(new Locator.FilterOptions().setHasText("denied.enforced.test"));
        assertThat(reported).containsText("would have been denied");
        assertThat(enforced).not().containsText("would have been denied");
        assertThat(enforced.getByRole(AriaRole.BUTTON)).hasCount(0);
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("company-egress-report.png"))
                .setFullPage(true));

        Locator add = reported.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add to allowlist"));
        add.click();
        assertThat(page.locator("#allowlist [role=status]")).hasText("Added pypi.reported.test.");
        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"api.github.com", "pypi.reported.test"});
        add.click();
        assertThat(page.locator("#allowlist [role=status]")).hasText("pypi.reported.test is already on the allowlist.");
        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"api.github.com", "pypi.reported.test"});
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com", "pypi.reported.test");
    }

    @Test
    void theDenialsTableFitsA1280PixelWindow() {
        String company = Stack.createCompany(Stack.unique("Widescreen"));
        String agent = Stack.createAgent(company, "wide", "docker", Map.of("image", "trimus-test/no-such-image:never"));
        String run = Stack.startRun(company, agent, Map.of());
        Instant now = Instant.now();
        EgressRecords.publish(
                EgressRecords.anomaly(company, run,
                        "a-rather-long-service-name.eu-central-1.storage.internal-mirror.example.test", "TLS",
                        EgressAnomaly.PROXY_HOST_MISMATCH, 1, now, true),
                EgressRecords.anomaly(company, run,
                        "another-quite-long-host-name-that-was-not-listed.registry.example.test:8443", "CONNECT",
                        EgressAnomaly.PROXY_NOT_ALLOWLISTED, 1, now, false));
        Page page = open(1280, 800);
        page.navigate("/companies/" + company + "/egress");
        assertThat(page.locator("tr.denial")).hasCount(2);

        @SuppressWarnings("unchecked")
        List<Number> edges = (List<Number>) page.evaluate("""
                () => {
                  const wrap = document.querySelector('#denials').closest('.table-wrap').getBoundingClientRect();
                  const head = document.querySelector('#denials thead th:last-child').getBoundingClientRect();
                  const cells = [...document.querySelectorAll('#denials tr.denial td:last-child')]
                      .map(td => td.getBoundingClientRect().right);
                  return [head.right, Math.max(...cells), wrap.right, document.documentElement.clientWidth];
                }""");
        double headRight = edges.get(0).doubleValue();
        double cellRight = edges.get(1).doubleValue();
        double wrapRight = edges.get(2).doubleValue();
        double viewport = edges.get(3).doubleValue();
        assertThat(headRight).as("right edge of the last column's heading").isLessThanOrEqualTo(wrapRight + 0.5);
        assertThat(cellRight).as("right edge of the last column's cells").isLessThanOrEqualTo(wrapRight + 0.5);
        assertThat(wrapRight).isLessThanOrEqualTo(viewport);
        assertThat((Boolean) page.evaluate("() => { const w = document.querySelector('#denials').closest('.table-wrap');"
                + " return w.scrollWidth <= w.clientWidth; }")).as("no horizontal scrolling in the table").isTrue();
    }
}
