package io.trimus.egress.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.egress.canary.Canary;
import io.trimus.egress.canary.CanaryService;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.events.CanaryCheck;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * HTTP face of a company's canaries: the latest with its checks and the ones before it ({@code GET}), and one on
 * demand ({@code POST}, 202: the canary runs in the background; the running one when there is one already).
 */
@Path("/api/companies/{company_id}/egress/canary")
@Produces(MediaType.APPLICATION_JSON)
public class CanaryResource {
    private final CanaryService canaries;
    private final Duration interval;

    CanaryResource(CanaryService canaries, TrimusConfig config) {
        this.canaries = canaries;
        this.interval = config.egress().canary().interval();
    }

    /** One canary as the API shows it. */
    public record CanaryView(UUID id, String status, String trigger, Instant requestedAt, Instant finishedAt,
                             String error, List<CanaryCheck> checks) {
    }

    /**
     * The latest canary at the top level ({@code status} {@code none} while the company never had one) and the
     * earlier ones in {@code history}, newest first; {@code interval} is the schedule (null when off).
     */
    public record CanaryStatus(UUID companyId, UUID id, String status, String trigger, Instant requestedAt,
                               Instant finishedAt, String error, List<CanaryCheck> checks, List<CanaryView> history,
                               Duration interval) {
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<CanaryStatus> get(@PathParam("company_id") String companyId) {
        UUID company = Ids.parse("company_id", companyId);
        return canaries.newest(company).map(list -> status(company, list));
    }

    @POST
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<CanaryStatus>> start(@PathParam("company_id") String companyId) {
        UUID company = Ids.parse("company_id", companyId);
        return canaries.start(company, Canary.MANUAL)
                .chain(started -> canaries.newest(company))
                .map(list -> RestResponse.status(RestResponse.Status.ACCEPTED, status(company, list)));
    }

    private CanaryStatus status(UUID company, List<Canary> newest) {
        Duration schedule = interval.isZero() || interval.isNegative() ? null : interval;
        if (newest.isEmpty()) {
            return new CanaryStatus(company, null, "none", null, null, null, null, List.of(), List.of(), schedule);
        }
        Canary latest = newest.get(0);
        List<CanaryView> history = newest.stream().skip(1).map(this::view).toList();
        return new CanaryStatus(company, latest.id, latest.status, latest.trigger, latest.requestedAt,
                latest.finishedAt, latest.error, canaries.checks(latest), history, schedule);
    }

    private CanaryView view(Canary canary) {
        return new CanaryView(canary.id, canary.status, canary.trigger, canary.requestedAt, canary.finishedAt,
                canary.error, canaries.checks(canary));
    }
}
