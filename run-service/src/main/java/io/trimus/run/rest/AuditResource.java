package io.trimus.run.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.service.audit.AuditLog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import java.util.UUID;

/** HTTP face of the audit log: who changed what, when and from where, newest first, page by page. */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {
    private static final int DEFAULT_LIMIT = 50;

    private final AuditLog audit;
    private final TrimusConfig config;

    AuditResource(AuditLog audit, TrimusConfig config) {
        this.audit = audit;
        this.config = config;
    }

    /**
     * A page of records (io.trimus.audit.record.v1, newest first) and the {@code before} of the next page, null when
     * this page is the last.
     */
    public record AuditPage(List<JsonNode> records, UUID nextBefore) {
    }

    /**
     * The records of {@code company_id} (its admins), or of everything, the platform's included (operators only,
     * without {@code company_id}); {@code limit} 1 to TRIMUS_RUN_LIST_MAX_LIMIT (default 50); page on with
     * {@code before} = the {@code next_before} of the previous page.
     */
    @GET
    @Allowed(Access.ADMIN)
    public Uni<AuditPage> list(@QueryParam("company_id") String companyId, @QueryParam("limit") String limit,
                               @QueryParam("before") String before) {
        UUID company = companyId == null || companyId.isBlank() ? null : Ids.parse("company_id", companyId.strip());
        int size = Limits.parse(limit, DEFAULT_LIMIT, config.run().listMaxLimit());
        UUID older = before == null || before.isBlank() ? null : Ids.parse("before", before.strip());
        return audit.page(company, older, size).map(records -> new AuditPage(records, records.size() < size ? null
                : UUID.fromString(records.get(records.size() - 1).path("id").asText())));
    }
}
