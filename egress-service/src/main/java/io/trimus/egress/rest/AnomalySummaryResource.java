package io.trimus.egress.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.egress.anomaly.store.AnomalyGroup;
import io.trimus.egress.anomaly.store.AnomalyService;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The operator's view of anomalies across all companies: how many lookups each company had denied per name, and
 * how many denials there were since a time. Both are aggregated by PostgreSQL; rows never leave the database.
 */
@Path("/api/egress/anomalies")
@Produces(MediaType.APPLICATION_JSON)
public class AnomalySummaryResource {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    /** Deepest page of the summary: it is ranked by recency, and an operator reads the top of it. */
    static final int MAX_OFFSET = 100_000;
    static final Duration DEFAULT_SUMMARY_WINDOW = Duration.ofHours(24);
    static final Duration DEFAULT_COUNT_WINDOW = Duration.ofHours(1);

    private final AnomalyService anomalies;

    AnomalySummaryResource(AnomalyService anomalies) {
        this.anomalies = anomalies;
    }

    /** One page of the summary: groups of (company, name) last seen since {@code since}, most recent first. */
    public record SummaryView(Instant since, int offset, int limit, List<AnomalyGroup> groups) {
    }

    /** Denials since {@code since}: lookups (sum of counts) and anomaly events; of one company when it is set. */
    public record CountView(Instant since, UUID companyId, long lookups, long events) {
    }

    /**
     * Anomalies last seen at or after {@code since} (default: 24 hours ago), grouped by company and qname with the
     * sum of their counts, the number of events and the latest last_seen; most recently seen group first. Paged by
     * {@code offset} (0 to 100000) and {@code limit} (1 to 500, default 50).
     */
    @GET
    @Path("/summary")
    @Allowed(Access.OPERATOR)
    public Uni<SummaryView> summary(@QueryParam("since") String since, @QueryParam("offset") String offset,
                                    @QueryParam("limit") String limit) {
        Instant from = QueryParams.instant("since", since, Instant.now().minus(DEFAULT_SUMMARY_WINDOW), "");
        int skip = QueryParams.wholeNumber("offset", offset, 0, 0, MAX_OFFSET);
        int size = QueryParams.wholeNumber("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        return anomalies.summary(from, skip, size).map(groups -> new SummaryView(from, skip, size, groups));
    }

    /** Denials last seen at or after {@code since} (default: an hour ago), of every company or of {@code company_id}. */
    @GET
    @Path("/count")
    @Allowed(Access.VIEWER)
    public Uni<CountView> count(@QueryParam("since") String since, @QueryParam("company_id") String companyId) {
        Instant from = QueryParams.instant("since", since, Instant.now().minus(DEFAULT_COUNT_WINDOW), "");
        UUID company = companyId == null || companyId.isBlank() ? null : Ids.parse("company_id", companyId.strip());
        return anomalies.countSince(from, company)
                .map(count -> new CountView(from, company, count.lookups(), count.events()));
    }
}
