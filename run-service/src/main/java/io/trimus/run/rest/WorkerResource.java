package io.trimus.run.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.run.service.worker.WorkerDirectory;
import io.trimus.run.service.worker.WorkerDirectory.WorkerView;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** The remote workers (adapter services in worker mode): their tags, when they were last heard from, whether live. */
@Path("/api/workers")
@Produces(MediaType.APPLICATION_JSON)
public class WorkerResource {
    private final WorkerDirectory workers;

    WorkerResource(WorkerDirectory workers) {
        this.workers = workers;
    }

    /** Every worker heard from recently, by id; {@code live} turns false after three missed heartbeats. */
    @GET
    @Allowed(Access.OPERATOR)
    public List<WorkerView> list() {
        return workers.list();
    }
}
