package io.trimus.egress.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.egress.chart.HourlyEgress;
import io.trimus.egress.chart.HourlyEgressService;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The dashboard's egress chart: allowed proxy connections and denials per UTC hour, of one company or of all,
 * over the last {@code hours} hours (the last one the hour now running), every hour present.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class HourlyEgressResource {
    static final int DEFAULT_HOURS = 24;
    static final int MAX_HOURS = 168;

    private final HourlyEgressService chart;

    HourlyEgressResource(HourlyEgressService chart) {
        this.chart = chart;
    }

    /** The chart: from the start of the first hour to the end of the last, one entry per hour, oldest first. */
    public record HourlyView(Instant from, Instant to, List<HourlyEgress.Hour> hours) {
        static HourlyView of(HourlyEgress egress) {
            return new HourlyView(egress.window().from(), egress.window().to(), egress.hours());
        }
    }

    /** One company's chart; {@code hours} from 1 to 168, default 24. */
    @GET
    @Path("/companies/{company_id}/egress/hourly")
    @Allowed(Access.VIEWER)
    public Uni<HourlyView> company(@PathParam("company_id") String companyId, @QueryParam("hours") String hours) {
        UUID company = Ids.parse("company_id", companyId);
        return chart.lastHours(hoursParam(hours), company).map(HourlyView::of);
    }

    /** Every company's chart (the overview), unattributed denials included; {@code hours} from 1 to 168, default 24. */
    @GET
    @Path("/egress/hourly")
    @Allowed(Access.OPERATOR)
    public Uni<HourlyView> all(@QueryParam("hours") String hours) {
        return chart.lastHours(hoursParam(hours), null).map(HourlyView::of);
    }

    private static int hoursParam(String hours) {
        return QueryParams.wholeNumber("hours", hours, DEFAULT_HOURS, 1, MAX_HOURS);
    }
}
