package io.trimus.system.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import io.trimus.events.RunUsage;
import io.trimus.events.Topics;
import io.trimus.system.SystemStack;
import io.trimus.testing.TestImages;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 30 on the running dashboard: a run whose agent CLI reported an answer and its usage shows the answer as its
 * output, the usage, and the raw stream folded away; the company page sums the usage per agent. Everything that came
 * from the sandbox (the answer, the model, the raw stream) and the agent's name are text on the page, never markup.
 * The run's result reaches run-service as the adapter service reports it (a status event on Kafka).
 */
@ExtendWith(SystemStack.class)
class DashboardUsageTest {
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
    private static final String SCRIPT = "<script>alert(1)</script>";
    private static final String HOSTILE_MODEL = "<img src=x onerror=alert(2)>";

    @Test
    void aCliRunShowsItsAnswerUsageAndRawOutputAsTextAndTheCompanyPageSumsIt() throws Exception {
        String company = Stack.createCompany(Stack.unique("Usage"));
        String agent = Stack.createAgent(company, "<b>coder</b>", "docker", Map.of("image", TestImages.busybox(),
                "network", "none", "command", List.of("sleep", "5"), "timeout_sec", 30));
        String run = Stack.startRun(company, agent, Map.of());
        String answer = "</pre>" + SCRIPT + " & done";
        String raw = "</details></pre>" + SCRIPT + "{\"type\":\"result\",\"result\":\"ok\"}";
        // as the adapter service reports a CLI run: sent while the container still sleeps, so this end is the first
        RunStatusChanged end = RunStatusChanged.of(UUID.fromString(run), UUID.fromString(company),
                UUID.fromString(agent), RunState.SUCCEEDED, 0, raw, null).withCliResult(answer, raw,
                new RunUsage(1200L, 345L, 800L, 100L, null, new BigDecimal("0.012346"), HOSTILE_MODEL, 2300L, 3));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Stack.config("kafka.bootstrap.servers"),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(Topics.RUN_STATUS, run, JSON.writeValueAsString(end)))
                    .get(30, TimeUnit.SECONDS);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> page("/companies/{c}/runs/{r}", company, run)
                .contains("id=\"usage-title\""));
        String html = page("/companies/{c}/runs/{r}", company, run);
        assertThat(html).contains("<dt>Tokens in</dt><dd>1,200</dd>").contains("<dt>Tokens out</dt><dd>345</dd>")
                .contains("<dt>Cache read / write</dt><dd>800 / 100</dd>")
                .contains("<dt>Cost</dt><dd>$0.012346 (as the CLI stated it)</dd>")
                .contains("<dt>API duration</dt><dd>2.3 s</dd>").contains("<dt>Turns</dt><dd>3</dd>")
                .doesNotContain("Reasoning tokens")
                .contains("id=\"output-title\">Answer</h2>").contains("<details id=\"raw-output\">");
        assertThat(html).as("what came from the sandbox is text, never markup").doesNotContain(SCRIPT)
                .doesNotContain(HOSTILE_MODEL).doesNotContain("</pre><script")
                .contains("&lt;img src=x onerror=alert(2)&gt;")
                .contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; done")
                .contains("&lt;/details&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(html.split("<details id=\"raw-output\">", -1)).hasSize(2);
        assertThat(html).doesNotContain("</details></pre>");

        String companyPage = page("/companies/{c}", company, null);
        assertThat(companyPage).contains("Usage in the last 30 days").contains("<table id=\"usage\">")
                .contains("<td>&lt;b&gt;coder&lt;/b&gt;</td>").doesNotContain("<b>coder</b>")
                .contains("$0.012346");
    }

    @Test
    void aRunWithoutUsageShowsItsOutputAndNeitherUsageNorRawOutput() {
        String company = Stack.createCompany(Stack.unique("NoUsage"));
        String agent = Stack.createAgent(company, "plain", "docker", Map.of("image", TestImages.busybox(),
                "network", "none", "command", List.of("echo", "hello"), "timeout_sec", 30));
        String run = Stack.startRun(company, agent, Map.of());
        assertThat(Stack.awaitFinished(company, run)).isEqualTo("SUCCEEDED");

        String html = page("/companies/{c}/runs/{r}", company, run);
        assertThat(html).contains("id=\"output-title\">Output</h2>").contains("hello")
                .doesNotContain("usage-title").doesNotContain("raw-output").doesNotContain("Tokens in");
        assertThat(page("/companies/{c}", company, null)).contains("Usage in the last 30 days")
                .contains("<th scope=\"row\">All agents</th>");
    }

    private static String page(String path, String company, String run) {
        var response = run == null ? given().get(path, company) : given().get(path, company, run);
        return response.then().statusCode(200).extract().asString();
    }
}
