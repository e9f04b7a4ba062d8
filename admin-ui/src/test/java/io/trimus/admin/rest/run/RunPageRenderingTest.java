package io.trimus.admin.rest.run;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.admin.client.RunServiceApi.AgentUsage;
import io.trimus.admin.client.RunServiceApi.Usage;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.UsageWords;
import io.trimus.admin.view.Views;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 30: the run page shows an agent CLI's answer, the usage its CLI reported and its raw output folded away, and
 * the company page its agents' usage; everything that came from a sandbox (the answer, the model, the raw stream) is
 * escaped, rendered by the real templates of the running dashboard.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class RunPageRenderingTest {
    private static final String SCRIPT = "<script>alert(1)</script>";
    private static final String HOSTILE_MODEL = "<img src=x onerror=alert(2)>";

    @Test
    void theRunPageShowsTheAnswerTheUsageAndTheRawOutputAllEscaped() {
        String answer = "</pre>" + SCRIPT + " & done";
        String raw = "</details></pre>" + SCRIPT + "{\"result\":\"ok\"}";
        Usage usage = new Usage(1200L, 345L, 800L, 100L, null, new BigDecimal("0.012346"), HOSTILE_MODEL, 2300L, 3);
        String html = render(() -> Templates.run(detail(answer, raw, UsageWords.facts(usage))).render());

        assertThat(html).contains("id=\"usage-title\">Usage</h2>")
                .contains("<dt>Tokens in</dt><dd>1,200</dd>").contains("<dt>Tokens out</dt><dd>345</dd>")
                .contains("<dt>Cache read / write</dt><dd>800 / 100</dd>")
                .contains("<dt>Cost</dt><dd>$0.012346 (as the CLI stated it)</dd>")
                .contains("<dt>API duration</dt><dd>2.3 s</dd>").contains("<dt>Turns</dt><dd>3</dd>")
                .doesNotContain("Reasoning tokens")
                .contains("id=\"output-title\">Answer</h2>")
                .contains("<details id=\"raw-output\">");
        // what came from the sandbox is text, never markup
        assertThat(html).doesNotContain(SCRIPT).doesNotContain(HOSTILE_MODEL).doesNotContain("</pre><script")
                .contains("&lt;img src=x onerror=alert(2)&gt;")
                .contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; done")
                .contains("&lt;/details&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(html.split("<details", -1)).hasSize(2);
        assertThat(html.split("</details>", -1)).hasSize(2);
    }

    @Test
    void aRunWithoutUsageShowsItsOutputAndNoUsageNorRawOutput() {
        String html = render(() -> Templates.run(detail("hello\n", null, List.of())).render());
        assertThat(html).contains("id=\"output-title\">Output</h2>").contains(">hello\n</pre>")
                .doesNotContain("usage-title").doesNotContain("raw-output").doesNotContain("Tokens in");
    }

    @Test
    void theCompanyPageSumsUsagePerAgentEscapingTheirNames() {
        UUID agent = UUID.randomUUID();
        Views.UsageRow row = UsageWords.row(agent.toString(), "<b>builder</b>",
                new AgentUsage(agent, 3, 2, 300L, 30L, 7L, null, null, new BigDecimal("0.75")));
        Views.UsageRow totals = UsageWords.row(null, "All agents",
                new AgentUsage(null, 3, 2, 300L, 30L, 7L, null, null, new BigDecimal("0.75")));
        String html = render(() -> Templates.company(new Views.Company(UUID.randomUUID().toString(), "Acme",
                List.of(), null, List.of(), null, List.of(row), totals, null)).render());
        assertThat(html).contains("Usage in the last 30 days").contains("<table id=\"usage\">")
                .contains("<td>&lt;b&gt;builder&lt;/b&gt;</td><td class=\"num\">3</td><td class=\"num\">2</td>"
                        + "<td class=\"num\">300</td><td class=\"num\">30</td><td class=\"num\">7 / —</td>"
                        + "<td class=\"num\">$0.75</td>")
                .contains("<th scope=\"row\">All agents</th>").doesNotContain("<b>builder</b>");

        String none = render(() -> Templates.company(new Views.Company(UUID.randomUUID().toString(), "Acme",
                List.of(), null, List.of(), null, List.of(), null, null)).render());
        assertThat(none).contains("No run finished in the last 30 days.").doesNotContain("<table id=\"usage\">");
        String failed = render(() -> Templates.company(new Views.Company(UUID.randomUUID().toString(), "Acme",
                List.of(), null, List.of(), null, List.of(), null, "run-service did not answer")).render());
        assertThat(failed).contains("run-service did not answer").doesNotContain("<table id=\"usage\">");
    }

    private static Views.RunDetail detail(String output, String raw, List<Views.Flag> usage) {
        String company = UUID.randomUUID().toString();
        return new Views.RunDetail(company, "Acme", UUID.randomUUID().toString(), "SUCCEEDED", true,
                "claude_sandbox", "builder", UUID.randomUUID().toString(), "0", output, null, null, List.of(),
                List.of(), "container", null, List.of(), new Views.Network(List.of(), null, null), null, raw, usage);
    }

    /** Renders as a page request would, with nobody signed in (the layout asks who is). */
    private static String render(Supplier<String> page) {
        ManagedContext request = Arc.container().requestContext();
        request.activate();
        try {
            return page.get();
        } finally {
            request.terminate();
        }
    }
}
