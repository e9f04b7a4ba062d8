package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.Cookie;
import com.microsoft.playwright.options.SameSiteAttribute;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Signing in with a built-in account in a real headless Chromium: the setup link run-service hands out (its secret in
 * the fragment) sets the password, the sign-in form opens the dashboard, the switcher lists only the person's
 * company and a viewer sees no admin actions; the same through the OpenID Connect provider of {@link SystemStack}
 * (a real one in its own JVM: its login page, code flow with state, nonce and PKCE); and a page of another origin that
 * makes the signed-in browser post a form to the dashboard is refused without any change.
 */
@ExtendWith(SystemStack.class)
class SignInBrowserTest {
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
        context = chromium.context(dashboard, 1280, 900, false);
        page = context.newPage();
    }

    @AfterEach
    void closeContext() {
        context.close();
    }

    @Test
    void aViewerSetsItsPasswordThroughTheSetupLinkSignsInAndSeesOnlyItsCompanyWithoutAdminActions() {
        String companyName = Stack.unique("Switcher");
        String company = Stack.createCompany(companyName);
        String otherName = Stack.unique("Elsewhere");
        Stack.createCompany(otherName);
        Stack.setAllowlist(company, "api.github.com");
        String email = Accounts.newEmail();
        URI link = Accounts.setupLink(company, email, "viewer");
        assertThat(link.getPath()).isEqualTo("/setup");

        page.navigate("/setup#" + link.getFragment());
        assertThat(page).hasURL(dashboard + "setup"); // the secret left the address bar
        page.getByLabel("New password").fill(Accounts.PASSWORD);
        page.getByLabel("The same password again").fill(Accounts.PASSWORD);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Set password")).click();
        assertThat(page.getByRole(AriaRole.STATUS)).containsText("Your password is set");

        page.getByLabel("Email").fill(email);
        page.getByLabel("Password").fill(Accounts.PASSWORD);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
        assertThat(page).hasURL(dashboard.toString());
        assertThat(page.locator("#signed-in-as")).containsText(email);
        Cookie cookie = context.cookies().stream().filter(c -> c.name.equals("trimus_session")).findFirst()
                .orElseThrow();
        assertThat(cookie.httpOnly).isTrue();
        assertThat(cookie.sameSite).isEqualTo(SameSiteAttribute.STRICT);

        page.locator("#company-switcher summary").click();
        assertThat(page.locator("#company-switcher li")).hasCount(1);
        assertThat(page.locator("#company-switcher")).containsText(companyName);
        assertThat(page.locator("#company-switcher")).containsText("viewer");
        assertThat(page.locator("#company-switcher")).not().containsText(otherName);
        assertThat(page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main")))
                .not().containsText("Anomalies");

        page.locator("#company-switcher a").click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setLevel(1))).hasText(companyName);
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Members"))).hasCount(0);
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Egress allowlist and denials")).click();
        assertThat(page.locator("#allowlist")).containsText("api.github.com");
        assertThat(page.locator("#allowlist-admins-only")).isVisible();
        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Add").setExact(true)))
                .hasCount(0);
        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save mode"))).hasCount(0);

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign out")).click();
        assertThat(page.getByRole(AriaRole.STATUS)).containsText("You are signed out");
        page.navigate("/companies/" + company);
        assertThat(page).hasURL(java.util.regex.Pattern.compile(".*/login\\?next=.*"));
    }

    @Test
    void aPersonSignsInThroughTheIdentityProviderAndLandsOnThePageItAskedForWithTheGrantedRole() {
        String companyName = Stack.unique("Provider");
        String company = Stack.createCompany(companyName);
        String email = Accounts.newEmail();
        page.navigate("/companies/" + company);
        assertThat(page).hasURL(java.util.regex.Pattern.compile(".*/login\\?next=.*"));

        var authorize = page.waitForRequest(r -> r.url().contains("/authorize?"), () -> page.getByRole(AriaRole.LINK,
                new Page.GetByRoleOptions().setName("Sign in with " + SystemStack.PROVIDER_NAME)).click());
        assertThat(authorize.url()).contains("code_challenge_method=S256").contains("nonce=").contains("state=")
                .contains("client_id=" + io.trimus.testing.OidcProvider.CLIENT_ID);
        signInAtProvider(email, "[\"" + company + ":admin\"]");

        assertThat(page).hasURL(dashboard + "companies/" + company);
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setLevel(1))).hasText(companyName);
        assertThat(page.locator("#signed-in-as")).containsText(email);
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Members"))).isVisible();
        Cookie cookie = context.cookies(dashboard.toString()).stream().filter(c -> c.name.equals("trimus_session"))
                .findFirst().orElseThrow();
        assertThat(cookie.httpOnly).isTrue();
        assertThat(cookie.sameSite).isEqualTo(SameSiteAttribute.STRICT);
        // the dashboard keeps no session of its own: quarkus-oidc's cookies (q_session…, q_auth…) are gone, any path
        assertThat(context.cookies()).extracting(c -> c.name).filteredOn(name -> name.startsWith("q_")).isEmpty();
    }

    @Test
    void aPersonTheProviderGrantsNoTrimusRoleGetsAPageThatSaysSoAndNoSession() {
        page.navigate("/login");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Sign in with "
                + SystemStack.PROVIDER_NAME)).click();
        signInAtProvider(Accounts.newEmail(), "[\"guests\"]");

        assertThat(page.locator("#problem")).containsText("grants no Trimus role");
        assertThat(page.locator("#problem")).containsText("Ask your administrator");
        assertThat(context.cookies(dashboard.toString())).extracting(c -> c.name).doesNotContain("trimus_session");
    }

    /** The provider's own login page: a subject and the claims its ID token is to carry. */
    private void signInAtProvider(String email, String rolesJson) {
        page.getByPlaceholder("Enter any user/subject").fill("subject-" + email);
        page.locator("textarea[name=claims]").fill("{\"email\": \"" + email + "\", \"trimus_roles\": " + rolesJson
                + "}");
        page.locator("input[type=submit]").click();
    }

    @Test
    void aFormAnotherSitePostsFromTheSignedInBrowserIsRefusedAndChangesNothing() throws IOException {
        String company = Stack.createCompany(Stack.unique("Forged"));
        Stack.setAllowlist(company, "api.github.com");
        String email = Accounts.withPassword(company, "admin");
        page.navigate("/login");
        page.getByLabel("Email").fill(email);
        page.getByLabel("Password").fill(Accounts.PASSWORD);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
        assertThat(page.locator("#signed-in-as")).containsText(email);

        String target = dashboard + "companies/" + company + "/egress/allowlist/add";
        HttpServer evil = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        // same host, another port: another origin but the same site, so the browser does send the Strict cookie
        byte[] html = ("<!DOCTYPE html><html><body><form id=\"f\" method=\"post\" action=\"" + target + "\">"
                + "<input name=\"entry\" value=\"evil.example\"></form>"
                + "<script>document.getElementById('f').submit();</script></body></html>")
                .getBytes(StandardCharsets.UTF_8);
        evil.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        evil.start();
        try {
            var answer = page.waitForResponse(r -> r.url().equals(target),
                    () -> page.navigate("http://" + dashboard.getHost() + ":" + evil.getAddress().getPort() + "/prize"));
            assertThat(answer.request().allHeaders()).containsKey("cookie"); // the browser did send the session
            assertThat(answer.status()).isEqualTo(403);
            assertThat(page.locator("#problem")).containsText("another site");
        } finally {
            evil.stop(0);
        }
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");

        // the same session adds on its own page
        page.navigate("/companies/" + company + "/egress");
        page.getByLabel("Add a name or *.suffix wildcard").fill("pypi.org");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Add").setExact(true)).click();
        assertThat(page.locator("#allowlist")).containsText("pypi.org");
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com", "pypi.org");
    }
}
