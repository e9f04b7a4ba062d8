package io.trimus.admin.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * run-service's audit log ({@code GET /api/audit}), read as the signed-in caller: a company's records for its admins,
 * every record (the platform's included) for operators. Built by {@link Backends}.
 */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
public interface AuditApi {
    /** A page of records, newest first; {@code companyId} null for every record (operators only). */
    @GET
    AuditPage page(@HeaderParam(RunServiceApi.AUTHORIZATION) String auth, @QueryParam("company_id") UUID companyId,
                   @QueryParam("limit") int limit, @QueryParam("before") UUID before);

    /** One page and the {@code before} of the next, null on the last page. */
    record AuditPage(List<AuditRecord> records, UUID nextBefore) {
    }

    /** One record (io.trimus.audit.record.v1); {@code companyId} null for the platform's. */
    record AuditRecord(UUID id, Instant occurredAt, Actor actor, UUID companyId, String action, Target target,
                       JsonNode details, Source source) {
    }

    /** Who made the change: {@code kind} user, token or system. */
    record Actor(String kind, String id, String name) {
    }

    /** What the change was made to. */
    record Target(String type, String id, String name) {
    }

    /** Where the request came from, as the service saw it. */
    record Source(String ip, String forwardedFor, String userAgent) {
    }
}
