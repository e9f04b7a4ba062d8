package io.trimus.admin.view;

import io.quarkus.qute.Engine;
import io.quarkus.qute.EngineBuilder;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.ReflectionValueResolver;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateLocator;
import io.quarkus.qute.UserTagSectionHelper;
import io.quarkus.qute.Variant;
import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every reason of the anomaly contract, the proxy's included, is offered by the filter and said in words; a
 * tunnelling score is shown on its denial row with its signals, as text.
 */
class AnomalyRowsTest {
    private static final Path TEMPLATES = Path.of("src/main/resources/templates");

    @Test
    void everyReasonOfTheContractIsOfferedAndSaidInWords() {
        assertThat(AnomalyRows.REASONS).containsExactlyElementsOf(EgressAnomaly.REASONS);
        for (String reason : EgressAnomaly.REASONS) {
            assertThat(AnomalyRows.reasonText(reason)).as(reason).isNotBlank().isNotEqualTo(reason);
        }
        assertThat(AnomalyRows.reasonOptions(EgressAnomaly.PROXY_PORT_DENIED))
                .hasSize(EgressAnomaly.REASONS.size() + 1)
                .filteredOn(Views.Option::selected).singleElement()
                .extracting(Views.Option::value).isEqualTo(EgressAnomaly.PROXY_PORT_DENIED);
        assertThat(AnomalyRows.reasonOptions(null)).extracting(Views.Option::label)
                .contains("suspected tunnelling (suspected_tunnelling)");
    }

    @Test
    void aCanaryBreachIsSaidInWordsAndOffered() {
        assertThat(AnomalyRows.reasonText(EgressAnomaly.CANARY_BREACH)).isEqualTo("canary breach");
        assertThat(AnomalyRows.reasonOptions(null)).extracting(Views.Option::label)
                .contains("canary breach (canary_breach)");
    }

    @Test
    void aCanaryBreachRowLeadsToTheCanariesAndOffersNoAllowlisting() throws IOException {
        Instant now = Instant.parse("2026-12-06T07:00:09Z");
        UUID company = UUID.randomUUID();
        UUID canary = UUID.randomUUID();
        EgressAnomaly breach = new EgressAnomaly(UUID.randomUUID(), company, UUID.randomUUID(), canary, null,
                "172.30.0.1", "172.30.0.1:22", "CANARY", EgressAnomaly.CANARY_BREACH, 1, now, now, false, null,
                null, null, null);
        Views.AnomalyRow row = AnomalyRows.of(breach, null).withActions(true, "token");
        assertThat(row.allowable()).isFalse();
        String rendered = engine().parse(Files.readString(TEMPLATES.resolve("egress.html")),
                new Variant(Locale.ROOT, "text/html", "UTF-8")).getFragment("denial_row").data("row", row).render();
        assertThat(rendered).contains("canary breach").contains("href=\"/companies/" + company + "#canaries\"")
                .doesNotContain("/runs/" + canary).doesNotContain("Add to allowlist");
    }

    @Test
    void theScoreFilterTakesANumberUpToOneAndKeepsUnscoredRowsOut() {
        assertThat(AnomalyRows.minScore("0.8")).isEqualTo(0.8);
        assertThat(AnomalyRows.minScore(" 0.5 ")).isEqualTo(0.5);
        assertThat(AnomalyRows.minScore("")).isNull();
        assertThat(AnomalyRows.minScore("0")).isNull();
        assertThat(AnomalyRows.minScore("1.5")).isNull();
        assertThat(AnomalyRows.minScore("high")).isNull();
        assertThat(AnomalyRows.scoreOptions(0.8)).extracting(Views.Option::label)
                .containsExactly("Any score", "≥ 0.5", "≥ 0.8");
        assertThat(AnomalyRows.scoreOptions(0.8)).filteredOn(Views.Option::selected).singleElement()
                .extracting(Views.Option::value).isEqualTo("0.8");
        assertThat(AnomalyRows.scoreOptions(0.65)).filteredOn(Views.Option::selected).singleElement()
                .extracting(Views.Option::label).isEqualTo("≥ 0.65");
        for (var scored : List.of(anomaly(0.83, List.of("rate")), anomaly(0.6, List.of()), anomaly(null, null))) {
            Double score = scored.score();
            assertThat(AnomalyRows.matches(scored, scored.companyId(), null, null, 0.8)).as("score %s", score)
                    .isEqualTo(score != null && score >= 0.8);
            assertThat(AnomalyRows.matches(scored, scored.companyId(), null, null, null)).isTrue();
        }
    }

    @Test
    void aScoreIsShownWithTwoDecimalsAndItsSignalsInWords() {
        Views.AnomalyRow scored = AnomalyRows.of(anomaly(0.8349, List.of("long_names", "high_entropy")), null);
        assertThat(scored.score()).isEqualTo("0.83");
        assertThat(scored.signals()).isEqualTo("long names, high entropy");
        assertThat(AnomalyRows.of(anomaly(1.0, List.of()), null).signals()).isEqualTo("none");
        Views.AnomalyRow unscored = AnomalyRows.of(anomaly(null, null), null);
        assertThat(unscored.score()).isNull();
        assertThat(unscored.signals()).isNull();
        assertThat(AnomalyRows.score(Double.NaN)).isNull();
    }

    @Test
    void theDenialRowShowsTheScoreAndEscapesTheSignals() throws IOException {
        Template egress = engine().parse(Files.readString(TEMPLATES.resolve("egress.html")),
                new Variant(Locale.ROOT, "text/html", "UTF-8"));
        String scored = egress.getFragment("denial_row").data("row",
                AnomalyRows.of(anomaly(0.83, List.of("rate", "<b>nxdomain</b>")), null)).render();
        assertThat(scored).contains("suspected tunnelling").contains(">score 0.83</span>")
                .contains("title=\"tunnelling score; signals: rate, &lt;b&gt;nxdomain&lt;/b&gt;\"")
                .doesNotContain("<b>");
        String unscored = egress.getFragment("denial_row").data("row", AnomalyRows.of(anomaly(null, null), null))
                .render();
        assertThat(unscored).contains("suspected tunnelling").doesNotContain("score");
    }

    private static EgressAnomaly anomaly(Double score, List<String> signals) {
        Instant now = Instant.parse("2026-12-06T03:00:00Z");
        return new EgressAnomaly(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), null, "c0ffee",
                "172.30.0.17", "*.t.attacker.example", "TXT", EgressAnomaly.SUSPECTED_TUNNELLING, 1,
                now.minusSeconds(5), now, true, null, null, score, signals);
    }

    // the page's templates as the app has them: its files, its user tags ({#csrf /}), HTML escaped
    private static Engine engine() throws IOException {
        EngineBuilder builder = Engine.builder().addDefaults().addValueResolver(new ReflectionValueResolver())
                .addResultMapper(new HtmlEscaper(List.of("text/html"))).addLocator(AnomalyRowsTest::locate);
        try (var tags = Files.list(TEMPLATES.resolve("tags"))) {
            tags.map(tag -> tag.getFileName().toString().replaceFirst("\\.html$", "")).forEach(tag ->
                    builder.addSectionHelper(new UserTagSectionHelper.Factory(tag, "tags/" + tag)));
        }
        return builder.build();
    }

    private static Optional<TemplateLocator.TemplateLocation> locate(String id) {
        Path file = TEMPLATES.resolve(id.endsWith(".html") ? id : id + ".html");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(new TemplateLocator.TemplateLocation() {
            @Override
            public Reader read() {
                try {
                    return Files.newBufferedReader(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public Optional<Variant> getVariant() {
                return Optional.of(new Variant(Locale.ROOT, "text/html", "UTF-8"));
            }
        });
    }
}
