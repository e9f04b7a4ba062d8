package io.trimus.egress.chart;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The whole UTC hours a chart shows: {@code hours} of them, the last one the hour {@code now} is in, so the chart
 * ends with the hour still running.
 *
 * @param from  start of the first hour (inclusive)
 * @param to    end of the last hour (exclusive)
 * @param hours how many hours
 */
public record HourWindow(Instant from, Instant to, int hours) {
    /** The {@code hours} hours up to and including the one {@code now} is in. */
    public static HourWindow endingWith(Instant now, int hours) {
        Instant to = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
        return new HourWindow(to.minus(Duration.ofHours(hours)), to, hours);
    }

    /** Start of the {@code i}-th hour, 0 being the oldest. */
    public Instant hour(int i) {
        return from.plus(Duration.ofHours(i));
    }
}
