package io.trimus.run.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.run.repository.worker.CompanyWorkerTag;
import io.trimus.run.service.worker.WorkerTagService;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Instant;
import java.util.List;

/** HTTP face of the operator's worker-tag grants: which workers a company's remote agents may run on. */
@Path("/api/companies/{company_id}/worker-tags")
@Produces(MediaType.APPLICATION_JSON)
public class WorkerTagResource {
    private final WorkerTagService tags;

    WorkerTagResource(WorkerTagService tags) {
        this.tags = tags;
    }

    /** One grant as the API shows it. */
    public record WorkerTagView(String tag, Instant grantedAt) {
        static WorkerTagView of(CompanyWorkerTag grant) {
            return new WorkerTagView(grant.key.tag, grant.grantedAt);
        }
    }

    /** The company's grants. */
    public record WorkerTagList(List<WorkerTagView> workerTags) {
    }

    /** Grants the tag; idempotent, 200 with the grant (its first grant time) every time. */
    @PUT
    @Path("/{tag}")
    @Allowed(Access.OPERATOR)
    public Uni<WorkerTagView> grant(@PathParam("company_id") String companyId, @PathParam("tag") String tag) {
        return tags.grant(Ids.parse("company_id", companyId), tag).map(WorkerTagView::of);
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<WorkerTagList> list(@PathParam("company_id") String companyId) {
        return tags.list(Ids.parse("company_id", companyId))
                .map(list -> new WorkerTagList(list.stream().map(WorkerTagView::of).toList()));
    }

    /** Revokes the grant: 204, or 404 when the company does not hold it. */
    @DELETE
    @Path("/{tag}")
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<Void>> revoke(@PathParam("company_id") String companyId, @PathParam("tag") String tag) {
        return tags.revoke(Ids.parse("company_id", companyId), tag).map(v -> RestResponse.noContent());
    }
}
