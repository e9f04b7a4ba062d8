package io.trimus.admin.rest.live;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.trimus.admin.auth.LiveCaller;
import io.trimus.admin.auth.LiveCallers;
import io.trimus.admin.auth.SignedIn;
import io.trimus.admin.client.CompanyNames;
import io.trimus.admin.messaging.LiveFeed;
import io.trimus.admin.rest.PageForbidden;
import io.trimus.admin.rest.PageNotFound;
import io.trimus.admin.view.AnomalyRows;
import io.trimus.admin.view.Templates;
import io.trimus.events.auth.Caller;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import java.util.UUID;

/**
 * The live feeds every page may open ({@code /live/…}): the overview's anomaly ticker (operators) and run status
 * signals (the caller's companies). A company's live denials are its egress page's own stream.
 */
@Path("/live")
public class LiveResource {
    private final CompanyNames names;
    private final LiveFeed feed;
    private final SignedIn signedIn;
    private final LiveCallers liveCallers;

    LiveResource(CompanyNames names, LiveFeed feed, SignedIn signedIn, LiveCallers liveCallers) {
        this.names = names;
        this.feed = feed;
        this.signedIn = signedIn;
        this.liveCallers = liveCallers;
    }

    /** Every company's anomalies as ticker items, live: operators only, ending when the caller is no longer one. */
    @GET
    @Path("/anomalies")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Blocking // the access gate asks run-service who calls
    public Multi<OutboundSseEvent> anomalies(@Context Sse sse) {
        if (!signedIn.caller().operator()) {
            throw new PageForbidden("Only the platform's operators see every company's anomalies.");
        }
        String authorization = signedIn.authorization(); // names are looked up outside this request
        return SseStreams.of(sse, "anomaly", feed.anomalies()
                .emitOn(Infrastructure.getDefaultWorkerPool()) // the company's name may need a run-service call
                .map(a -> Templates.overview$ticker_item(AnomalyRows.of(a, names.of(a.companyId(), authorization)))
                        .render()), liveCallers.watch(Caller::operator));
    }

    /**
     * Run status changes as bare signals (event {@code run-status}, data = the run id): pages re-read what they
     * show from run-service, which has applied the change by then or shortly after. Only the runs of the caller's
     * companies as run-service last said (re-checked while the stream is open).
     */
    @GET
    @Path("/runs")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Blocking // the access gate asks run-service who calls
    public Multi<OutboundSseEvent> runs(@Context Sse sse, @QueryParam("run_id") String runId) {
        UUID only = runId == null || runId.isBlank() ? null : PageNotFound.id("run", runId);
        LiveCaller caller = liveCallers.watch(c -> true);
        return SseStreams.of(sse, "run-status", feed.runStatuses()
                .filter(s -> mayRead(caller.current(), s.companyId()))
                .filter(s -> only == null || only.equals(s.runId()))
                .map(s -> s.runId() + " " + s.status()), caller);
    }

    // a company's runs only to its own people
    private static boolean mayRead(Caller caller, UUID companyId) {
        return caller.operator() || (companyId != null && caller.roleIn(companyId).isPresent());
    }
}
