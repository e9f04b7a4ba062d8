package io.trimus.system.dashboard;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.trimus.events.EgressAnomaly;
import io.trimus.system.SystemStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 31 on the dashboard, in a real headless Chromium against the real backends, signed in through the sign-in form:
 * an admin adds an entry with request rules through its form, sees it in words (host, ports, methods, paths), edits
 * and removes it, is told egress-service's refusal (naming the field) next to the form with nothing changed, and is
 * told a rule whose fields come in another order is already listed; gives an agent a list of its own, changes it and
 * drops it; sees a report-mode {@code proxy_request_denied} with its method, path and the rules that refused it, and
 * "Add this path" widens both lists that refused it. A hostile path from a sandbox is text; a viewer gets no edit
 * control and is refused when it forces one.
 */
@ExtendWith(SystemStack.class)
class DashboardEgressRulesTest {
    private static final String SCRIPT_PATH = "/<script>alert(1)</script>";
    private static final String NO_IMAGE = "trimus-test/no-such-image:never";
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

    @Test
    void anAdminAddsEditsAndRemovesARuleEntryThroughItsForm() {
        String company = Stack.createCompany(Stack.unique("Rules"));
        Stack.setAllowlist(company, "pypi.org");
        Page page = signedIn(Accounts.withPassword(company, "admin"));
        page.navigate("/companies/" + company + "/egress");

        Locator add = page.locator("details.add-rule");
        add.locator("summary").click();
        add.getByLabel("Host").fill("api.github.com");
        add.getByLabel("Ports").fill("443");
        add.getByLabel("GET", new Locator.GetByLabelOptions().setExact(true)).check();
        add.getByLabel("HEAD", new Locator.GetByLabelOptions().setExact(true)).check();
        add.getByLabel("Path prefixes, one per line").fill("/user\n/repos/acme/");
        add.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add entry")).click();
        assertThat(page.locator("#allowlist [role=status]")).hasText("Added the entry for api.github.com.");
        Locator rule = page.locator("#allowlist li.allow-entry").filter(new Locator.FilterOptions()
                .setHasText("api.github.com"));
        assertThat(rule.locator(".entry.rule")).hasText("api.github.com ports 443 GET HEAD /repos/acme/ /user");
        assertThat(page.locator("#allowlist .entries")).not().containsText("{\"host\"");
        assertThat(entries(company)).containsExactlyInAnyOrder(Map.of("host", "api.github.com", "ports", List.of(443),
                "methods", List.of("GET", "HEAD"), "paths", List.of("/repos/acme/", "/user")), "pypi.org");

        // the same entry typed as JSON with its fields and lists in another order is already listed
        page.locator("#entry").fill("{\"paths\": [\"/user\", \"/repos/acme/\"], \"methods\": [\"HEAD\", \"GET\"],"
                + " \"ports\": [443], \"host\": \"API.github.com\"}");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Add").setExact(true)).click();
        assertThat(page.locator("#allowlist [role=status]")).containsText("is already on the allowlist.");
        assertThat(page.locator("#allowlist li.allow-entry")).hasCount(2);

        rule.locator("details.edit summary").click();
        Locator edit = rule.locator("details.edit");
        edit.getByLabel("HEAD", new Locator.GetByLabelOptions().setExact(true)).uncheck();
        edit.getByLabel("Path prefixes, one per line").fill("/repos/acme/\n/user\n/orgs/acme");
        edit.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Save entry")).click();
        assertThat(page.locator("#allowlist [role=status]")).hasText("Saved the entry for api.github.com.");
        assertThat(page.locator("#allowlist .entry.rule"))
                .hasText("api.github.com ports 443 GET /orgs/acme /repos/acme/ /user");
        assertThat(entries(company)).containsExactlyInAnyOrder(Map.of("host", "api.github.com", "ports", List.of(443),
                "methods", List.of("GET"), "paths", List.of("/orgs/acme", "/repos/acme/", "/user")), "pypi.org");

        // egress-service refuses a path that is not in normal form: its reason next to the form, nothing changed
        page.locator("details.add-rule summary").click();
        add = page.locator("details.add-rule");
        add.getByLabel("Host").fill("uploads.github.com");
        add.getByLabel("Path prefixes, one per line").fill("/repos/../etc");
        add.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add entry")).click();
        assertThat(page.locator("#rule-error")).containsText("The entry's paths[0]");
        assertThat(page.locator("#rule-error")).containsText("normal form");
        assertThat(page.locator("details.add-rule #rule-host")).hasValue("uploads.github.com");
        assertThat(page.locator("#allowlist li.allow-entry")).hasCount(2);
        assertThat(entries(company)).hasSize(2);

        page.locator("#allowlist li.allow-entry").filter(new Locator.FilterOptions().setHasText("api.github.com"))
                .getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Remove")).click();
        assertThat(page.locator("#allowlist li.allow-entry")).hasCount(1);
        assertThat(entries(company)).containsExactly("pypi.org");
    }

    @Test
    void anAdminGivesAnAgentAListOfItsOwnChangesItAndDropsIt() {
        String company = Stack.createCompany(Stack.unique("Narrow"));
        Stack.setAllowlist(company, "pypi.org", "api.github.com");
        String agent = Stack.createAgent(company, "narrowed", "docker", Map.of("image", NO_IMAGE));
        Page page = signedIn(Accounts.withPassword(company, "admin"));
        page.navigate("/companies/" + company);
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Own allowlist of narrowed")).click();
        assertThat(page.locator("h1")).hasText("Egress of agent narrowed");
        assertThat(page.locator("#agent-list-narrows")).containsText("only narrows the company's");
        assertThat(page.locator("#agent-list-none")).isVisible();

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Create an own list")).click();
        assertThat(page.locator("#allowlist [role=status]")).containsText("a copy of the company's");
        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"api.github.com", "pypi.org"});
        assertThat(agentList(company, agent)).isEqualTo(Map.of("own_list", true,
                "entries", List.of("api.github.com", "pypi.org")));

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Remove pypi.org")).click();
        assertThat(page.locator("#allowlist .entry")).hasText(new String[]{"api.github.com"});
        Locator add = page.locator("details.add-rule");
        add.locator("summary").click();
        add.getByLabel("Host").fill("uploads.github.com");
        add.getByLabel("POST", new Locator.GetByLabelOptions().setExact(true)).check();
        add.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add entry")).click();
        assertThat(page.locator("#allowlist .entry.rule")).hasText("uploads.github.com POST any path");
        assertThat(agentList(company, agent)).isEqualTo(Map.of("own_list", true, "entries", List.of("api.github.com",
                Map.of("host", "uploads.github.com", "methods", List.of("POST")))));
        assertThat(entries(company)).as("the company's list is untouched")
                .containsExactly("api.github.com", "pypi.org");

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Drop the agent's own list")).click();
        assertThat(page.locator("#agent-list-none")).isVisible();
        assertThat(agentList(company, agent)).isEqualTo(Map.of("own_list", false, "entries", List.of()));
    }

    @Test
    void aReportModeRequestDenialShowsItsRulesAndAddThisPathWidensBothListsThatRefusedIt() {
        String company = Stack.createCompany(Stack.unique("Requests"));
        String agent = Stack.createAgent(company, "caller", "docker", Map.of("image", NO_IMAGE));
        setEntries("/api/companies/{c}/egress/allowlist", company, null,
                Map.of("host", "api.github.com", "methods", List.of("GET"), "paths", List.of("/repos/acme/")));
        setEntries("/api/companies/{c}/agents/{a}/egress/allowlist", company, agent,
                Map.of("host", "api.github.com", "methods", List.of("GET"), "paths", List.of("/repos/")));
        Stack.egressService().body(Map.of("mode", "report")).put("/api/companies/{c}/egress/policy", company)
                .then().statusCode(200);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        EgressRecords.publish(
                request(company, agent, "GET", "/orgs/acme", now, false),
                request(company, agent, "GET", SCRIPT_PATH, now.minusSeconds(1), false),
                request(company, agent, "DELETE", "/repos/acme/app", now.minusSeconds(2), true));
        Page page = signedIn(Accounts.withPassword(company, "admin"));
        List<String> dialogs = new CopyOnWriteArrayList<>();
        page.onDialog(dialog -> {
            dialogs.add(dialog.message());
            dialog.dismiss();
        });
        String html = page.navigate("/companies/" + company + "/egress").text();

        Locator orgs = row(page, "/orgs/acme");
        assertThat(orgs.locator(".req-method")).hasText("GET");
        assertThat(orgs.locator(".req-path")).hasText("/orgs/acme");
        assertThat(orgs).containsText("would have been denied");
        assertThat(orgs.locator(".refused-by").allTextContents().stream().map(t -> t.replaceAll("\\s+", " ").strip()))
                .containsExactly("Refused by the company's list: api.github.com GET /repos/acme/",
                        "Refused by the agent's own list: api.github.com GET /repos/");
        // an enforced denial is not offered, and a request denial never offers the whole host
        Locator enforced = row(page, "/repos/acme/app");
        assertThat(enforced.getByRole(AriaRole.BUTTON)).hasCount(0);
        assertThat(orgs.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add to allowlist")))
                .hasCount(0);

        // the sandbox's path is text: no script ran, no element was made of it
        Locator hostile = row(page, SCRIPT_PATH);
        assertThat(hostile.locator(".req-path")).hasText(SCRIPT_PATH);
        assertThat(page.locator("#denials script")).hasCount(0);
        assertThat(html).doesNotContain(SCRIPT_PATH).contains("/&lt;script&gt;alert(1)&lt;/script&gt;");

        orgs.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add this path: GET /orgs/acme on"
                + " api.github.com")).click();
        assertThat(page.locator("#allowlist [role=status]")).hasText("Added GET /orgs/acme on api.github.com to the"
                + " company's list and to the agent's own list.");
        assertThat(entries(company)).containsExactly(Map.of("host", "api.github.com", "methods", List.of("GET"),
                "paths", List.of("/orgs/acme", "/repos/acme/")));
        assertThat(agentList(company, agent).get("entries")).isEqualTo(List.of(Map.of("host", "api.github.com",
                "methods", List.of("GET"), "paths", List.of("/orgs/acme", "/repos/"))));

        page.reload();
        assertThat(row(page, "/orgs/acme")).containsText("The lists as they are now let this request through.");
        assertThat(dialogs).as("no script of the sandbox ran").isEmpty();
    }

    @Test
    void aViewerSeesTheDenialButNoEditControlAndIsRefusedWhenItForcesOne() {
        String company = Stack.createCompany(Stack.unique("Onlooker"));
        String agent = Stack.createAgent(company, "watched", "docker", Map.of("image", NO_IMAGE));
        setEntries("/api/companies/{c}/egress/allowlist", company, null,
                Map.of("host", "api.github.com", "methods", List.of("GET"), "paths", List.of("/repos/acme/")));
        EgressRecords.publish(request(company, agent, "GET", SCRIPT_PATH, Instant.now(), false));
        URI base = SystemStack.dashboard();
        Http viewer = new Http(base).withSession(new Http(base).signIn(Accounts.withPassword(company, "viewer"),
                Accounts.PASSWORD));

        HttpResponse<String> egress = viewer.get("/companies/" + company + "/egress");
        assertThat(egress.statusCode()).isEqualTo(200);
        assertThat(egress.body()).contains("/&lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain(SCRIPT_PATH)
                .contains("Refused by the company")
                .doesNotContain("Add this path").doesNotContain("/allowlist/add").doesNotContain("/allowlist/replace")
                .doesNotContain("/allowlist/remove").contains("Only the company's admins change the allowlist");
        HttpResponse<String> own = viewer.get("/companies/" + company + "/agents/" + agent + "/egress");
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(own.body()).contains("agent-list-none").doesNotContain("Create an own list")
                .doesNotContain("/allowlist/create");

        String token = Http.csrf(egress);
        HttpResponse<String> forced = viewer.post("/companies/" + company + "/egress/allowlist/add-request",
                Map.of("_csrf", token, "qname", "api.github.com", "qtype", "TLS", "method", "GET", "path", "/x"));
        assertThat(forced.statusCode()).isEqualTo(403);
        HttpResponse<String> create = viewer.post("/companies/" + company + "/agents/" + agent
                + "/egress/allowlist/create", Map.of("_csrf", token));
        assertThat(create.statusCode()).isEqualTo(403);
        assertThat(entries(company)).hasSize(1);
        assertThat(agentList(company, agent).get("own_list")).isEqualTo(false);
    }

    private Page signedIn(String email) {
        context = chromium.context(dashboard, 1280, 900, false);
        Page page = context.newPage();
        page.navigate("/login");
        page.getByLabel("Email").fill(email);
        page.getByLabel("Password").fill(Accounts.PASSWORD);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
        assertThat(page.locator("#signed-in-as")).containsText(email);
        return page;
    }

    /** The denial row of the request with exactly this path. */
    private static Locator row(Page page, String path) {
        // a JavaScript pattern: every character but letters, digits and / escaped
        Pattern exactly = Pattern.compile("^" + path.replaceAll("[^A-Za-z0-9/]", "\\\\$0") + "$");
        return page.locator("tr.denial").filter(new Locator.FilterOptions().setHas(page.locator("code.req-path",
                new Page.LocatorOptions().setHasText(exactly))));
    }

    private static EgressAnomaly request(String company, String agent, String method, String path, Instant last,
                                         boolean enforced) {
        return new EgressAnomaly(UUID.randomUUID(), UUID.fromString(company), UUID.fromString(agent), null, null,
                "10.199.96.21", "api.github.com", "TLS", EgressAnomaly.PROXY_REQUEST_DENIED, 1, last.minusSeconds(5),
                last, enforced, method, path);
    }

    private static void setEntries(String path, String company, String agent, Object... entries) {
        var request = Stack.egressService().body(Map.of("entries", List.of(entries)));
        (agent == null ? request.put(path, company) : request.put(path, company, agent)).then().statusCode(200);
    }

    private static List<Object> entries(String company) {
        return Stack.egressService().get("/api/companies/{c}/egress/allowlist", company).then().statusCode(200)
                .extract().jsonPath().getList("entries");
    }

    private static Map<String, Object> agentList(String company, String agent) {
        Map<String, Object> list = Stack.egressService().get("/api/companies/{c}/agents/{a}/egress/allowlist",
                company, agent).then().statusCode(200).extract().jsonPath().getMap("$");
        return Map.of("own_list", list.get("own_list"), "entries", list.get("entries"));
    }
}
