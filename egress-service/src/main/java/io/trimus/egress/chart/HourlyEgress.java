package io.trimus.egress.chart;

import java.time.Instant;
import java.util.List;

/**
 * Allowed connections and denials per hour, for the dashboard's chart.
 *
 * @param window the hours shown
 * @param hours  one entry per hour of the window, oldest first, zeros included
 */
public record HourlyEgress(HourWindow window, List<Hour> hours) {
    /**
     * One hour.
     *
     * @param hour    its start
     * @param allowed proxy connections allowed that started in it
     * @param denied  denials (DNS and proxy, the sum of the anomaly rows' counts) last seen in it
     */
    public record Hour(Instant hour, long allowed, long denied) {
    }
}
