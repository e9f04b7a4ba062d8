package io.trimus.admin.view;

import io.trimus.admin.client.EgressServiceApi.HourCount;
import io.trimus.admin.client.EgressServiceApi.Hourly;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.view.HourlyChart.Hour;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The "last 24 hours" egress chart of a page, from egress-service's hourly figures: always 24 one-hour slots ending
 * with the current hour (hours egress-service leaves out count as zero), or the sentence why the figures are missing.
 */
public final class EgressCharts {
    /** The hours a chart shows. */
    public static final int HOURS = 24;

    private EgressCharts() {
    }

    /** The chart with the page-unique {@code id} and {@code title}, or the sentence when {@code figures} failed. */
    public static Views.Chart of(String id, String title, Fetched<Hourly> figures, Instant now) {
        if (figures.failed()) {
            return new Views.Chart(null, "The hourly figures could not be read: " + figures.error(), 0, 0);
        }
        List<Hour> hours = slots(figures.value(), now);
        return new Views.Chart(HourlyChart.svg(id, title, hours), null,
                hours.stream().mapToLong(Hour::allowed).sum(), hours.stream().mapToLong(Hour::denied).sum());
    }

    /** The {@value #HOURS} hours ending with the one that holds {@code now}, filled from {@code hourly}. */
    static List<Hour> slots(Hourly hourly, Instant now) {
        Map<Instant, HourCount> byHour = new HashMap<>();
        if (hourly != null && hourly.hours() != null) {
            for (HourCount h : hourly.hours()) {
                if (h != null && h.hour() != null) {
                    byHour.merge(h.hour().truncatedTo(ChronoUnit.HOURS), h, (a, b) ->
                            new HourCount(a.hour(), a.allowed() + b.allowed(), a.denied() + b.denied()));
                }
            }
        }
        Instant first = now.truncatedTo(ChronoUnit.HOURS).minus(HOURS - 1, ChronoUnit.HOURS);
        List<Hour> slots = new ArrayList<>(HOURS);
        for (int i = 0; i < HOURS; i++) {
            Instant start = first.plus(i, ChronoUnit.HOURS);
            HourCount h = byHour.get(start);
            slots.add(new Hour(start, h == null ? 0 : Math.max(0, h.allowed()), h == null ? 0 : Math.max(0, h.denied())));
        }
        return slots;
    }
}
