package io.trimus.admin.view;

import io.trimus.admin.client.EgressServiceApi.HourCount;
import io.trimus.admin.client.EgressServiceApi.Hourly;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.view.HourlyChart.Hour;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The server-rendered hourly chart: bar heights to scale, an empty day said in words, outside text escaped. */
class HourlyChartTest {
    private static final Instant NINE = Instant.parse("2026-12-01T09:00:00Z");
    private static final Pattern BAR = Pattern.compile(
            "<rect class=\"bar (allowed|denied)\" data-hour=\"([^\"]+)\" data-value=\"(\\d+)\" x=\"[^\"]+\" "
                    + "y=\"([^\"]+)\" width=\"[^\"]+\" height=\"([^\"]+)\"");

    @Test
    void barsAreScaledToAnAxisThatEndsAtTheNextRoundNumber() {
        List<Hour> hours = List.of(new Hour(NINE, 10, 0), new Hour(NINE.plusSeconds(3600), 5, 2),
                new Hour(NINE.plusSeconds(7200), 0, 8));
        String svg = HourlyChart.svg("c", "Egress", hours);

        List<String[]> bars = bars(svg);
        assertThat(bars).hasSize(6);
        // max 10 → axis 0..10: the plot is PLOT_HEIGHT tall, so 10 fills it, 5 half of it, 8 four fifths
        assertThat(height(bars, "allowed", NINE)).isEqualTo(HourlyChart.PLOT_HEIGHT);
        assertThat(height(bars, "allowed", NINE.plusSeconds(3600))).isEqualTo(HourlyChart.PLOT_HEIGHT / 2.0);
        assertThat(height(bars, "denied", NINE.plusSeconds(7200))).isEqualTo(HourlyChart.PLOT_HEIGHT * 0.8, within());
        assertThat(height(bars, "denied", NINE)).isZero();
        // bars stand on the baseline
        for (String[] bar : bars) {
            assertThat(Double.parseDouble(bar[3]) + Double.parseDouble(bar[4]))
                    .isEqualTo(HourlyChart.TOP + HourlyChart.PLOT_HEIGHT, within());
        }
        assertThat(svg).contains(">10</text>", ">5</text>", ">0</text>", ">09:00</text>")
                .doesNotContain("chart-note");
    }

    @Test
    void itIsAnAccessibleImageWithATitleADescriptionAndALegend() {
        String svg = HourlyChart.svg("egress-chart", "Egress of Acme", List.of(new Hour(NINE, 3, 1)));
        assertThat(svg).startsWith("<svg class=\"chart\" id=\"egress-chart\" role=\"img\"")
                .contains("aria-labelledby=\"egress-chart-title egress-chart-desc\"")
                .contains("<title id=\"egress-chart-title\">Egress of Acme</title>")
                .contains("<desc id=\"egress-chart-desc\">From 09:00 to 10:00 UTC: 3 allowed connections and 1 denials")
                .contains("Allowed connections</text>", "Denials</text>")
                .contains("<title>09:00–10:00 UTC: 3 allowed</title>");
    }

    @Test
    void aDayWithoutTrafficIsAnEmptyChartWithANote() {
        List<Hour> hours = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            hours.add(new Hour(NINE.plus(i, ChronoUnit.HOURS), 0, 0));
        }
        String svg = HourlyChart.svg("c", "Quiet", hours);
        assertThat(bars(svg)).isEmpty();
        assertThat(svg).contains("class=\"chart-note\"").contains("No connections and no denials in these hours.")
                .contains(": no connections and no denials.</desc>").contains(">09:00</text>").contains(">06:00</text>");
        assertThat(HourlyChart.svg("c", "Nothing", List.of())).contains("No hourly figures.");
    }

    @Test
    void textFromOutsideIsEscaped() {
        String svg = HourlyChart.svg("x\"><script>", "Egress of <script>alert('x')</script> & co",
                List.of(new Hour(NINE, 1, 1)));
        assertThat(svg).doesNotContain("<script>").doesNotContain("x\"><")
                .contains("Egress of &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co");
    }

    @Test
    void theAxisEndsAtOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(HourlyChart.niceCeiling(0)).isEqualTo(1);
        assertThat(HourlyChart.niceCeiling(1)).isEqualTo(1);
        assertThat(HourlyChart.niceCeiling(3)).isEqualTo(5);
        assertThat(HourlyChart.niceCeiling(7)).isEqualTo(10);
        assertThat(HourlyChart.niceCeiling(40)).isEqualTo(50);
        assertThat(HourlyChart.niceCeiling(120)).isEqualTo(200);
        assertThat(HourlyChart.niceCeiling(1_000_001)).isEqualTo(2_000_000);
    }

    @Test
    void missingHoursAreZeroAndTheDayEndsWithTheCurrentHour() {
        Instant now = NINE.plus(23, ChronoUnit.HOURS).plusSeconds(1234);
        Hourly hourly = new Hourly(null, null, List.of(new HourCount(NINE.plus(5, ChronoUnit.HOURS), 4, 2),
                new HourCount(NINE.minus(3, ChronoUnit.HOURS), 99, 99)));
        List<Hour> slots = EgressCharts.slots(hourly, now);
        assertThat(slots).hasSize(24);
        assertThat(slots.get(0).start()).isEqualTo(NINE);
        assertThat(slots.get(23).start()).isEqualTo(NINE.plus(23, ChronoUnit.HOURS));
        assertThat(slots.get(5)).isEqualTo(new Hour(NINE.plus(5, ChronoUnit.HOURS), 4, 2));
        assertThat(slots.stream().mapToLong(Hour::allowed).sum()).isEqualTo(4);

        Views.Chart failed = EgressCharts.of("c", "t", Fetched.failed("egress-service is not reachable right now."), now);
        assertThat(failed.svg()).isNull();
        assertThat(failed.error()).isEqualTo("The hourly figures could not be read: egress-service is not reachable right now.");
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(0.11);
    }

    private static double height(List<String[]> bars, String series, Instant hour) {
        return bars.stream().filter(b -> b[0].equals(series) && b[1].equals(hour.toString()))
                .mapToDouble(b -> Double.parseDouble(b[4])).findFirst().orElseThrow();
    }

    private static List<String[]> bars(String svg) {
        List<String[]> bars = new ArrayList<>();
        Matcher m = BAR.matcher(svg);
        while (m.find()) {
            bars.add(new String[]{m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)});
        }
        return bars;
    }
}
