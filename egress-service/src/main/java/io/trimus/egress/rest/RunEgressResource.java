package io.trimus.egress.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.egress.connection.ConnectionTotals;
import io.trimus.egress.connection.EgressConnection;
import io.trimus.egress.connection.MaskedUse;
import io.trimus.egress.connection.HostTotals;
import io.trimus.egress.connection.RunEgress;
import io.trimus.egress.connection.RunEgressService;
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
 * HTTP face of what a run talked to through the egress proxy: its connections' totals per host and its latest
 * connections. egress-service does not know runs: a run it has no record of (unknown, or another company's) simply
 * has no connections.
 */
@Path("/api/companies/{company_id}/runs/{run_id}/egress")
@Produces(MediaType.APPLICATION_JSON)
public class RunEgressResource {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final RunEgressService runs;

    RunEgressResource(RunEgressService runs) {
        this.runs = runs;
    }

    /**
     * The run's record: {@code summary} over all its connections, {@code connections} the latest, newest first, and
     * {@code masked_secrets}: per masked secret and host, how many requests had it swapped in (names, never values).
     */
    public record RunEgressView(UUID runId, SummaryView summary, List<ConnectionView> connections,
                                List<MaskedUse> maskedSecrets) {
        static RunEgressView of(RunEgress egress) {
            ConnectionTotals t = egress.totals();
            return new RunEgressView(egress.runId(),
                    new SummaryView(t.connections(), t.allowed(), t.refused(), t.bytesOut(), t.bytesIn(),
                            egress.hosts()),
                    egress.latest().stream().map(ConnectionView::of).toList(), egress.maskedSecrets());
        }
    }

    /** Totals of all the run's connections, and per (host, port) for the busiest 200 hosts. */
    public record SummaryView(long connections, long allowed, long refused, long bytesOut, long bytesIn,
                              List<HostTotals> hosts) {
    }

    /**
     * One connection: how it came in ({@code explicit} or {@code transparent}), where to, what was decided
     * ({@code allowed}, {@code refused} or {@code abandoned}, with the reason or {@code -}), bytes each way.
     */
    public record ConnectionView(String sandboxIp, String way, String host, int port, String address, String decision,
                                 String reason, boolean enforced, long bytesOut, long bytesIn, Instant startedAt,
                                 long durationMs) {
        static ConnectionView of(EgressConnection c) {
            return new ConnectionView(c.sandboxIp, c.way, c.host, c.port, c.address, c.decision, c.reason, c.enforced,
                    c.bytesOut, c.bytesIn, c.startedAt, c.durationMs);
        }
    }

    /** The run's connection record; {@code limit} (1 to 1000, default 100) bounds the connections listed. */
    @GET
    @Allowed(Access.VIEWER)
    public Uni<RunEgressView> get(@PathParam("company_id") String companyId, @PathParam("run_id") String runId,
                                  @QueryParam("limit") String limit) {
        UUID company = Ids.parse("company_id", companyId);
        UUID run = Ids.parse("run_id", runId);
        int size = QueryParams.wholeNumber("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        return runs.of(company, run, size).map(RunEgressView::of);
    }
}
