package io.trimus.system.dashboard;

import io.trimus.system.SystemStack;
import org.junit.jupiter.api.extension.ExtendWith;
import io.restassured.response.ValidatableResponse;
import io.trimus.events.Topics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * What the pages do on the server, against the real backends: allowlist edits and their refusals, a backend that
 * is down becoming a sentence, a company with 10,000 anomalies read one page at a time, and the A2A peer task of a
 * delegated run.
 */
@ExtendWith(SystemStack.class)
class DashboardPagesTest {

    @Test
    void theOverviewShowsRunsByStatusAndDenialsOfTheLastHour() {
        String company = Stack.createCompany(Stack.unique("Overview"));
        String agent = Stack.createAgent(company, "idle", "docker",
                Map.of("image", "trimus-test/no-such-image:never"));
        Stack.startRun(company, agent, Map.of());
        html(given().get("/")).statusCode(200)
                .body(containsString("Runs by status")).body(containsString("data-status=\"QUEUED\""))
                .body(containsString("Denials in the last hour")).body(containsString("denied lookups"))
                .body(containsString("sse-connect=\"/live/anomalies\""));
    }

    @Test
    void aRunDelegatedToAnA2aPeerNamesThePeersTask() throws Exception {
        String company = Stack.createCompany(Stack.unique("Delegating"));
        String agent = Stack.createAgent(company, "idle", "docker",
                Map.of("image", "trimus-test/no-such-image:never"));
        String run = Stack.startRun(company, agent, Map.of());
        String peerTask = "peer-task-" + UUID.randomUUID();
        // as the adapter service reports a remote run whose A2A peer named its task
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Stack.config("kafka.bootstrap.servers"),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(Topics.RUN_STATUS, run, "{\"id\": \"" + UUID.randomUUID()
                    + "\", \"run_id\": \"" + run + "\", \"company_id\": \"" + company + "\", \"agent_id\": \""
                    + agent + "\", \"status\": \"RUNNING\", \"occurred_at\": \"" + Instant.now()
                    + "\", \"peer_task_id\": \"" + peerTask + "\"}")).get(30, TimeUnit.SECONDS);
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                html(given().get("/companies/{c}/runs/{r}", company, run)).statusCode(200)
                        .body(containsString("A2A peer task")).body(containsString(peerTask)));
    }

    @Test
    void aCompanyPageNamesEachAgentsIsolationPlainly() {
        String company = Stack.createCompany(Stack.unique("Isolated"));
        Stack.createAgent(company, "builder", "docker", Map.of("image", "trimus-test/busybox:latest"));
        html(given().get("/companies/{c}", company)).statusCode(200)
                .body(containsString("builder")).body(containsString("isolation-container"))
                .body(containsString("container: hardened container"));
        html(given().get("/companies")).statusCode(200).body(containsString("Companies"));
    }

    @Test
    void anInvalidEntryIsRefusedWithEgressServicesReasonAndChangesNothing() {
        String company = Stack.createCompany(Stack.unique("Strict"));
        Stack.setAllowlist(company, "api.github.com");

        html(given().formParam("entry", "not a name!").post("/companies/{c}/egress/allowlist/add", company))
                .statusCode(400)
                .body(containsString("The entry &quot;not a name!&quot; is not a host name"))
                .body(containsString("aria-invalid=\"true\""));
        // with htmx the editor alone comes back, still with the reason next to the field
        html(given().header("HX-Request", "true").formParam("entry", "*.com")
                .post("/companies/{c}/egress/allowlist/add", company)).statusCode(200)
                .body(containsString("id=\"entry-error\"")).body(containsString("is not a host name"))
                .body(not(containsString("<html")));
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");
    }

    @Test
    void entriesAreAddedAndRemovedThroughEgressService() {
        String company = Stack.createCompany(Stack.unique("Editor"));
        given().redirects().follow(false).formParam("entry", "  Bücher.Example. ")
                .post("/companies/{c}/egress/allowlist/add", company).then().statusCode(303)
                .header("Location", containsString("/companies/" + company + "/egress"));
        assertThat(Stack.allowlist(company)).containsExactly("xn--bcher-kva.example");

        html(given().header("HX-Request", "true").formParam("entry", "*.npmjs.org")
                .post("/companies/{c}/egress/allowlist/add", company)).statusCode(200)
                .body(containsString("*.npmjs.org")).body(containsString("Added *.npmjs.org."));
        html(given().header("HX-Request", "true").formParam("entry", "xn--bcher-kva.example")
                .post("/companies/{c}/egress/allowlist/remove", company)).statusCode(200)
                .body(not(containsString(">xn--bcher-kva.example<")));
        assertThat(Stack.allowlist(company)).containsExactly("*.npmjs.org");
    }

    @Test
    void anEntryWithAPortIsAddedAndRemovedLikeAnyOtherAndABadPortIsExplained() {
        String company = Stack.createCompany(Stack.unique("Ports"));
        Stack.setAllowlist(company, "api.github.com");

        html(given().header("HX-Request", "true").formParam("entry", "Git.Example.com:22")
                .post("/companies/{c}/egress/allowlist/add", company)).statusCode(200)
                .body(containsString(">git.example.com:22<")).body(containsString("optionally with <code>:port</code>"));
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com", "git.example.com:22");

        html(given().formParam("entry", "git.example.com:70000").post("/companies/{c}/egress/allowlist/add", company))
                .statusCode(400)
                .body(containsString("The entry &quot;git.example.com:70000&quot; must name a port from 1 to 65535"));
        html(given().header("HX-Request", "true").formParam("entry", "git.example.com:22")
                .post("/companies/{c}/egress/allowlist/remove", company)).statusCode(200)
                .body(not(containsString(">git.example.com:22<")));
        assertThat(Stack.allowlist(company)).containsExactly("api.github.com");
    }

    @Test
    void aBackendThatIsDownBecomesASentenceAndTheRestOfThePageStillShows() {
        String company = Stack.createCompany(Stack.unique("Outage"));
        Stack.setAllowlist(company, "pypi.org");
        Stack.down("egress-service");
        try {
            html(given().get("/companies/{c}/egress", company)).statusCode(200)
                    .body(containsString("egress-service is not reachable right now"))
                    .body(containsString("Egress of Outage"));
            html(given().get("/")).statusCode(200)
                    .body(containsString("egress-service is not reachable right now"))
                    .body(containsString("data-status=\"QUEUED\""));
        } finally {
            Stack.up("egress-service");
        }
        Stack.down("run-service");
        try {
            // run-service says who calls: without it no page can be shown, each says why
            html(given().get("/companies/{c}", company)).statusCode(503)
                    .body(containsString("run-service is not reachable right now"));
            html(given().get("/companies")).statusCode(503)
                    .body(containsString("run-service is not reachable right now"));
        } finally {
            Stack.up("run-service");
        }
        html(given().get("/companies/{c}/egress", company)).statusCode(200).body(containsString("pypi.org"));
    }

    @Test
    void aRunPageSaysSoWhenEgressServiceCannotGiveItsNetworkRecord() {
        String company = Stack.createCompany(Stack.unique("Unplugged"));
        String agent = Stack.createAgent(company, "idle", "docker", Map.of("image", "trimus-test/no-such-image:never"));
        String run = Stack.startRun(company, agent, Map.of());
        Stack.down("egress-service");
        try {
            html(given().get("/companies/{c}/runs/{r}", company, run)).statusCode(200)
                    .body(containsString("The network record could not be read: egress-service is not reachable"))
                    .body(containsString("id=\"run-status\""));
            html(given().get("/companies/{c}/egress", company)).statusCode(200)
                    .body(containsString("The hourly figures could not be read: egress-service is not reachable"))
                    .body(containsString("The egress mode could not be read: egress-service is not reachable"));
        } finally {
            Stack.up("egress-service");
        }
        html(given().get("/companies/{c}/runs/{r}", company, run)).statusCode(200)
                .body(containsString("No network connections recorded"));
    }

    @Test
    void aSandboxedCliAgentIsWarnedAboutWhileItsProviderHostIsNotOnTheAllowlist() {
        String company = Stack.createCompany(Stack.unique("Providers"));
        Stack.setAllowlist(company, "api.github.com", "api.openai.com");
        Stack.createAgent(company, "claude", "claude_sandbox", Map.of());
        Stack.createAgent(company, "codex", "codex_sandbox", Map.of());
        String page = html(given().get("/companies/{c}", company)).statusCode(200).extract().asString();
        assertThat(count(page, "class=\"warning\"")).isEqualTo(1);
        assertThat(page).contains("api.anthropic.com is not on this company&#39;s allowlist: Claude Code in this agent&#39;s"
                + " sandbox cannot reach its API").doesNotContain("api.openai.com is not on");

        // host:port entries are the allowlist's next step; ProviderHosts' unit test covers them
        Stack.setAllowlist(company, "*.anthropic.com", "api.openai.com");
        html(given().get("/companies/{c}", company)).statusCode(200).body(not(containsString("class=\"warning\"")));
        Stack.setAllowlist(company);
        String both = html(given().get("/companies/{c}", company)).statusCode(200).extract().asString();
        assertThat(both).contains("api.anthropic.com is not on", "api.openai.com is not on");
        Stack.down("egress-service");
        try {
            html(given().get("/companies/{c}", company)).statusCode(200)
                    .body(containsString("Whether api.anthropic.com is on this company&#39;s allowlist is unknown: "
                            + "egress-service is not reachable right now"));
        } finally {
            Stack.up("egress-service");
        }
    }

    @Test
    void aModeOtherThanEnforceOrReportIsRefusedAndChangesNothing() {
        String company = Stack.createCompany(Stack.unique("Modes"));
        html(given().formParam("mode", "off").post("/companies/{c}/egress/policy", company)).statusCode(400)
                .body(containsString("Choose a mode: enforce or report."))
                .body(containsString("<strong class=\"mode mode-enforce\">enforce</strong>"));
        given().redirects().follow(false).formParam("mode", "report")
                .post("/companies/{c}/egress/policy", company).then().statusCode(303)
                .header("Location", containsString("/companies/" + company + "/egress"));
        html(given().header("HX-Request", "true").formParam("mode", "")
                .post("/companies/{c}/egress/policy", company)).statusCode(200)
                .body(containsString("Choose a mode")).body(containsString("mode-report"))
                .body(not(containsString("<html")));
    }

    @Test
    void unknownOrMalformedIdsAreNotFoundPages() {
        html(given().get("/companies/{c}", UUID.randomUUID())).statusCode(404)
                .body(containsString("does not exist"));
        html(given().get("/companies/not-a-uuid/egress")).statusCode(404)
                .body(containsString("There is no company with the id &quot;not-a-uuid&quot;."));
        html(given().get("/anomalies?window=forever")).statusCode(404).body(containsString("There is no time window"));
        String company = Stack.createCompany(Stack.unique("Filtered"));
        html(given().queryParam("reason", "bogus").get("/companies/{c}/egress", company)).statusCode(200)
                .body(containsString("reason &quot;bogus&quot; must be one of"));
    }

    @Test
    void tenThousandAnomaliesAreReadOnePageAtATime() throws Exception {
        String company = Stack.createCompany(Stack.unique("Noisy"));
        seedAnomalies(UUID.fromString(company), 10_000);

        String first = html(given().get("/companies/{c}/egress", company)).statusCode(200).extract().asString();
        assertThat(count(first, "class=\"denial\"")).isEqualTo(50);
        assertThat(first).contains("flood-0.noisy.test", "flood-39.noisy.test", "grouped-by-name.noisy.test");
        Matcher older = Pattern.compile("href=\"(/companies/[^\"]+\\?before=[^\"]+)\">Older").matcher(first);
        assertThat(older.find()).as("an Older link").isTrue();

        String second = html(given().urlEncodingEnabled(false).get(older.group(1).replace("&amp;", "&")))
                .statusCode(200).extract().asString();
        assertThat(count(second, "class=\"denial\"")).isEqualTo(50);
        assertThat(second).contains("grouped-by-name.noisy.test").doesNotContain("flood-");

        String filtered = html(given().queryParam("qname", "FLOOD-39").queryParam("reason", "qtype_denied")
                .get("/companies/{c}/egress", company)).statusCode(200).extract().asString();
        assertThat(count(filtered, "class=\"denial\"")).isEqualTo(1);

        // the operator view: 10,000 rows in 41 names, summed by PostgreSQL
        html(given().get("/anomalies")).statusCode(200)
                .body(containsString("Noisy")).body(containsString("grouped-by-name.noisy.test"))
                .body(containsString(">9960<"));
    }

    /** Rows as egress-service's consumer stores them, written in one statement: 10,000 events through Kafka take long. */
    private static void seedAnomalies(UUID company, int n) throws Exception {
        try (Connection db = DriverManager.getConnection(Stack.config(SystemStack.JDBC_KEY), "postgres", "postgres");
             PreparedStatement insert = db.prepareStatement("""
                     insert into egress.egress_anomaly_events (id, company_id, agent_id, run_id, container_id,
                         source_ip, qname, qtype, reason, count, first_seen, last_seen, received_at)
                     select gen_random_uuid(), ?, null, null, null, '10.199.96.9',
                            case when i < 40 then 'flood-' || i || '.noisy.test'
                                 else 'grouped-by-name.noisy.test' end,
                            case when i % 2 = 0 then 'A' else 'TXT' end,
                            case when i % 2 = 0 then 'not_allowlisted' else 'qtype_denied' end,
                            1,
                            now() - make_interval(secs => i), now() - make_interval(secs => i), now()
                     from generate_series(0, ? - 1) as i""")) {
            insert.setObject(1, company);
            insert.setInt(2, n);
            insert.executeUpdate();
        }
    }

    private static ValidatableResponse html(io.restassured.response.Response response) {
        return response.then().contentType(containsString("text/html"))
                .body(not(containsString("Exception"))).body(not(containsString("\tat ")));
    }

    private static int count(String text, String needle) {
        return text.split(Pattern.quote(needle), -1).length - 1;
    }

}
