package io.trimus.egress.chart;

import io.trimus.commons.rows.TenantTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The chart of the egress pages: per hour, the connections the proxy allowed ({@code egress_connection}) and the
 * denials (the counts of {@code egress_anomaly_events}: resolver and proxy, enforced ones only, since what report
 * mode let through is among the allowed). One statement per series.
 */
@ApplicationScoped
public class HourlyEgressService {
    /** The last {@code hours} hours, up to and including the current one, of one company or (null) of all. */
    @TenantTransaction
    public Uni<HourlyEgress> lastHours(int hours, UUID companyId) {
        HourWindow window = HourWindow.endingWith(Instant.now(), hours);
        return HourlySeries.query(window, "count(*)", "egress.egress_connection", "started_at",
                        "decision = 'allowed'", companyId)
                .flatMap(allowed -> HourlySeries.query(window, "sum(count)", "egress.egress_anomaly_events",
                                "last_seen", "enforced", companyId)
                        .map(denied -> chart(window, allowed, denied)));
    }

    private static HourlyEgress chart(HourWindow window, long[] allowed, long[] denied) {
        List<HourlyEgress.Hour> hours = new ArrayList<>(window.hours());
        for (int i = 0; i < window.hours(); i++) {
            hours.add(new HourlyEgress.Hour(window.hour(i), allowed[i], denied[i]));
        }
        return new HourlyEgress(window, hours);
    }
}
