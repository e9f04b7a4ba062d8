package io.trimus.egress.rest;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.StreamAccess;
import io.trimus.commons.problem.Ids;
import io.trimus.egress.anomaly.store.AnomalyBroadcast;
import io.trimus.egress.anomaly.store.AnomalyEvent;
import io.trimus.egress.anomaly.store.AnomalyFilter;
import io.trimus.egress.anomaly.store.AnomalyService;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** HTTP face of a company's egress anomalies: the latest denied lookups of its sandboxes, paged or live. */
@Path("/api/companies/{company_id}/egress/anomalies")
public class AnomalyResource {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    /** Name of the SSE events that carry an anomaly. */
    static final String SSE_EVENT = "anomaly";
    // keeps idle connections open through proxies and notices clients that left
    private static final Duration HEARTBEAT = Duration.ofSeconds(15);
    // anomalies a slow client may fall behind by before its stream ends (EventSource reconnects by itself)
    private static final int CLIENT_BUFFER = 512;

    private final AnomalyService anomalies;
    private final AnomalyBroadcast broadcast;
    private final StreamAccess streams;

    AnomalyResource(AnomalyService anomalies, AnomalyBroadcast broadcast, StreamAccess streams) {
        this.anomalies = anomalies;
        this.broadcast = broadcast;
        this.streams = streams;
    }

    /**
     * A persisted anomaly: every field of the event, plus when egress-service stored it; {@code enforced} is false
     * for what report mode let through (it would have been denied); {@code method} and {@code path} name the refused
     * request of a {@code proxy_request_denied}, null otherwise; {@code score} (0 to 1) and {@code signals} are the
     * sandbox's tunnelling score for the name's base domain and the signals that were up, null when the event had
     * none (an unattributed source, an event of before scores).
     */
    public record AnomalyView(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                              String qname, String qtype, String reason, long count, Instant firstSeen,
                              Instant lastSeen, Instant receivedAt, boolean enforced, String method, String path,
                              Double score, List<String> signals) {
        static AnomalyView of(AnomalyEvent a) {
            return new AnomalyView(a.id, a.companyId, a.agentId, a.runId, a.containerId, a.sourceIp, a.qname, a.qtype,
                    a.reason, a.count, a.firstSeen, a.lastSeen, a.receivedAt, a.enforced, a.method, a.path, a.score,
                    a.signalList());
        }
    }

    /**
     * The company's latest anomalies, newest {@code last_seen} first. Page on with {@code before} = the
     * {@code last_seen} of the last item received. {@code reason} keeps one reason (exact match, one of
     * {@code EgressAnomaly.REASONS}); {@code qname} keeps names that contain the text, ignoring
     * case ({@code github} matches {@code api.GitHub.com}); {@code min_score} (0 to 1) keeps anomalies with a
     * tunnelling score of at least it (none without a score).
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Allowed(Access.VIEWER)
    public Uni<List<AnomalyView>> list(@PathParam("company_id") String companyId, @QueryParam("limit") String limit,
                                       @QueryParam("before") String before, @QueryParam("reason") String reason,
                                       @QueryParam("qname") String qname, @QueryParam("min_score") String minScore) {
        UUID company = Ids.parse("company_id", companyId);
        AnomalyFilter filter = new AnomalyFilter(QueryParams.instant("before", before, null,
                " (the last_seen of the last item)"), QueryParams.reason(reason), QueryParams.qnamePart(qname),
                QueryParams.minScore(minScore));
        return anomalies.latest(company, filter, QueryParams.wholeNumber("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT))
                .map(rows -> rows.stream().map(AnomalyView::of).toList());
    }

    /**
     * The company's anomalies as they are persisted, as server-sent events named {@value #SSE_EVENT} with the
     * anomaly as JSON data; a comment line every {@code 15 s} keeps the connection alive. Only anomalies persisted
     * after the client connected are sent: read the list first to catch up. The caller is asked again every
     * {@code trimus.streams.recheck} (30 s) as a new request would be: the stream ends once its credential is revoked
     * or expired or the caller is no longer in the company. One credential holds at most
     * {@code trimus.streams.max-per-caller} (10) streams on this instance; one more is 429.
     */
    @GET
    @Path("/stream")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Allowed(Access.VIEWER)
    public Multi<OutboundSseEvent> stream(@PathParam("company_id") String companyId, @Context Sse sse) {
        UUID company = Ids.parse("company_id", companyId);
        StreamAccess.Lease lease = streams.open();
        Multi<OutboundSseEvent> live = broadcast.of(company)
                .onOverflow().buffer(CLIENT_BUFFER)
                .map(row -> sse.newEventBuilder()
                        .name(SSE_EVENT)
                        .id(row.id.toString())
                        .mediaType(MediaType.APPLICATION_JSON_TYPE)
                        .data(AnomalyView.class, AnomalyView.of(row))
                        .build());
        // subscribed after the live feed, so a client that saw the first comment misses no anomaly persisted since
        Multi<OutboundSseEvent> heartbeats = Multi.createBy().concatenating().streams(
                Multi.createFrom().item(sse.newEventBuilder().comment("stream open").build()),
                Multi.createFrom().ticks().startingAfter(HEARTBEAT).every(HEARTBEAT)
                        .map(tick -> sse.newEventBuilder().comment("keep-alive").build()));
        return lease.guard(Multi.createBy().merging().streams(live, heartbeats))
                .onFailure(BackPressureFailure.class).recoverWithCompletion();
    }

}
