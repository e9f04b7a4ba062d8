package io.trimus.admin.client;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The part of egress-service's REST API the dashboard reads and writes; built by {@link Backends}. */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public interface EgressServiceApi {

    @GET
    @Path("/companies/{company_id}/egress/allowlist")
    Allowlist allowlist(@PathParam("company_id") UUID companyId);

    /** Replaces the whole list; egress-service stores nothing unless every entry is valid (400 otherwise). */
    @PUT
    @Path("/companies/{company_id}/egress/allowlist")
    @Consumes(MediaType.APPLICATION_JSON)
    Allowlist replaceAllowlist(@PathParam("company_id") UUID companyId, AllowlistBody body);

    @GET
    @Path("/companies/{company_id}/egress/anomalies")
    List<Anomaly> anomalies(@PathParam("company_id") UUID companyId, @QueryParam("limit") int limit,
                            @QueryParam("before") String before, @QueryParam("reason") String reason,
                            @QueryParam("qname") String qname);

    @GET
    @Path("/egress/anomalies/summary")
    AnomalySummary summary(@QueryParam("since") Instant since, @QueryParam("offset") int offset,
                           @QueryParam("limit") int limit);

    @GET
    @Path("/egress/anomalies/count")
    DenialCount count(@QueryParam("since") Instant since);

    /** A company's allowlist: normalised entries, sorted. */
    record Allowlist(UUID companyId, List<String> entries) {
    }

    /** Body of the PUT. */
    record AllowlistBody(List<String> entries) {
    }

    /** A persisted anomaly: {@code count} denied lookups of one sandbox for one name. */
    record Anomaly(UUID id, UUID companyId, UUID agentId, UUID runId, String containerId, String sourceIp,
                   String qname, String qtype, String reason, long count, Instant firstSeen, Instant lastSeen) {
    }

    /** One page of the operator summary. */
    record AnomalySummary(Instant since, int offset, int limit, List<AnomalyGroup> groups) {
    }

    /** Denied lookups of one company for one name since the summary's {@code since}. */
    record AnomalyGroup(UUID companyId, String qname, long lookups, long events, Instant lastSeen) {
    }

    /** Denials since a time. */
    record DenialCount(Instant since, long lookups, long events) {
    }
}
