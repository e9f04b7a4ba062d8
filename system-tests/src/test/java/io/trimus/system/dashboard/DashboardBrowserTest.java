package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.trimus.testing.TestImages;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.List;
import java.util.Map;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard in a real headless Chromium, against the real backends: allowlist edits, a denied lookup of a real
 * sandbox appearing without a reload, and a finished run's detail. Saves the screenshots docs/dashboard.md shows in
 * target/screenshots.
 */
@ExtendWith(SystemStack.class)
class DashboardBrowserTest {
    private static Chromium chromium;

    URL dashboard = SystemStack.dashboardUrl();

    private BrowserContext context;
    private Page page;

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

    @BeforeEach
    void open() {
        // these tests are about the pages: the test operator's token, as a script would send it
        context = chromium.context(dashboard, 1280, 900, true);
        page = context.newPage();
    }

    @AfterEach
    void closeContext() {
        context.close();
    }

    @Test
    void anAddedEntryIsListed() {
        String company = Stack.createCompany(Stack.unique("Acme"));
        Stack.setAllowlist(company, "api.github.com");
        page.navigate("/companies/" + company + "/egress");

        page.getByLabel("Add a name or *.suffix wildcard").fill("*.pypi.org");
        page.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON,
                new Page.GetByRoleOptions().setName("Add").setExact(true)).click();

        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"*.pypi.org", "api.github.com"});
        assertThat(page.locator("#allowlist [role=status]")).hasText("Added *.pypi.org.");
        assertThat(Stack.allowlist(company)).containsExactly("*.pypi.org", "api.github.com");
    }

    @Test
    void anInvalidEntryShowsEgressServicesReasonInlineAndChangesNothing() {
        String company = Stack.createCompany(Stack.unique("Initech"));
        Stack.setAllowlist(company, "api.github.com");
        page.navigate("/companies/" + company + "/egress");

        Locator field = page.getByLabel("Add a name or *.suffix wildcard");
        field.fill("bad name!");
        field.press("Enter");

        Locator error = page.locator("#entry-error");
        assertThat(error).containsText("The entry \"bad name!\" is not a host name");
        assertThat(page.getByLabel("Add a name or *.suffix wildcard")).hasAttribute("aria-invalid", "true");
        assertThat(page.getByLabel("Add a name or *.suffix wildcard")).hasAttribute("aria-describedby", "entry-error");
        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"api.github.com"});
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");
    }

    @Test
    void aDeniedLookupOfARealSandboxAppearsOnTheOpenEgressPageWithoutAReload() {
        String company = Stack.createCompany(Stack.unique("Globex"));
        Stack.setAllowlist(company, "api.github.com", "*.npmjs.org");
        String agent = Stack.createAgent(company, "resolver-probe", "docker", Map.of(
                "image", TestImages.busybox(), "network", SystemStack.NETWORK, "timeout_sec", 60,
                "command", List.of("/bin/sh", "-c", "nslookup something.denied.test; echo lookup-done")));
        page.navigate("/companies/" + company + "/egress");
        assertThat(page.locator("[data-live]")).hasAttribute("data-live", "open");
        assertThat(page.locator("#denial-rows tr.denial")).hasCount(0);
        Object marker = page.evaluate("() => { window.notReloaded = true; return true; }");
        assertThat(marker).isEqualTo(true);

        String run = Stack.startRun(company, agent, Map.of("issue", Map.of("id", "GLX-7", "title", "probe DNS")));

        // busybox asks for A and AAAA: each denial is a row of its own
        Locator row = page.locator("#denial-rows tr.denial").filter(
                new Locator.FilterOptions().setHasText("something.denied.test")).first();
        assertThat(row).isVisible(new com.microsoft.playwright.assertions.LocatorAssertions.IsVisibleOptions()
                .setTimeout(90_000));
        assertThat(row).containsText("not on the allowlist");
        assertThat(row.locator("a")).hasAttribute("href", "/companies/" + company + "/runs/" + run);
        assertThat(page.evaluate("() => window.notReloaded === true")).isEqualTo(true);
        assertThat(Stack.awaitFinished(company, run)).isEqualTo("SUCCEEDED");
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("company-egress.png"))
                .setFullPage(true));

        // the overview, with this run counted and this denial among the most denied names
        // egress-service stores the anomaly from the same topic the page was fed from: it may lag a moment
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
            page.navigate("/");
            return page.locator("body").textContent().contains("something.denied.test");
        });
        assertThat(page.locator("#denials-hour")).isVisible();
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("overview.png"))
                .setFullPage(true));
        page.navigate("/anomalies");
        assertThat(page.locator("body")).containsText("something.denied.test");
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("anomalies.png"))
                .setFullPage(true));
    }

    @Test
    void theDetailOfAFinishedRunShowsItsOutputTimelineAndIsolation() {
        String company = Stack.createCompany(Stack.unique("Umbrella"));
        String agent = Stack.createAgent(company, "hello", "docker", Map.of(
                "image", TestImages.busybox(), "pids_limit", 50, "memory", "64m", "cpus", 0.5, "timeout_sec", 30,
                "command", List.of("/bin/sh", "-c", "echo hello from the sandbox; id -u; exit 3")));
        String run = Stack.startRun(company, agent, Map.of("issue", Map.of("id", "UMB-1", "title", "say hello")));
        assertThat(Stack.awaitFinished(company, run)).isEqualTo("FAILED");

        page.navigate("/companies/" + company + "/runs/" + run);
        assertThat(page.locator("#run-status")).hasText("FAILED");
        assertThat(page.locator("#exit-code")).hasText("3");
        assertThat(page.locator("#output")).containsText("hello from the sandbox");
        assertThat(page.locator(".timeline li.done")).hasCount(4);
        assertThat(page.locator("#isolation")).containsText("read-only");
        assertThat(page.locator("#isolation")).containsText("50 processes");
        assertThat(page.locator("#isolation")).containsText("64m, swap pinned to the same");
        assertThat(page.locator("#isolation")).containsText("none (no network at all)");
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("run-detail.png"))
                .setFullPage(true));

        page.navigate("/companies/" + company);
        assertThat(page.locator("body")).containsText("container");
        page.screenshot(new Page.ScreenshotOptions().setPath(Browsers.SCREENSHOTS.resolve("company.png"))
                .setFullPage(true));
    }

    @Test
    void theKeyboardReachesEveryControlOfTheEgressPage() {
        String company = Stack.createCompany(Stack.unique("Keys"));
        Stack.setAllowlist(company, "api.github.com");
        page.navigate("/companies/" + company + "/egress");
        page.keyboard().press("Tab");
        assertThat(page.locator(".skip")).isFocused();
        page.keyboard().press("Enter");
        // tab from the skip target to the entry field, type, and submit with the keyboard only
        for (int i = 0; i < 12 && !"entry".equals(page.evaluate("() => document.activeElement.id")); i++) {
            page.keyboard().press("Tab");
        }
        assertThat(page.locator("#entry")).isFocused();
        page.keyboard().type("keyboard.example.org");
        page.keyboard().press("Enter");
        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"api.github.com", "keyboard.example.org"});
    }
}
