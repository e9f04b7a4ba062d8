package io.trimus.adapter.egress.registry;

import io.trimus.events.SandboxRegistration;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * egress-service's internal sandbox registry as a REST client; {@link EgressServiceClient} builds it with the base URL
 * and timeout of TRIMUS_EGRESS_SERVICE_URL and TRIMUS_EGRESS_REGISTRATION_TIMEOUT and reads every answer itself.
 */
@RegisterRestClient
@Path("/internal/sandboxes/{ip}")
@Produces(MediaType.APPLICATION_JSON)
public interface SandboxRegistry {

    /** Tells egress-service that {@code ip} is this sandbox. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    Response register(@PathParam("ip") String ip, SandboxRegistration registration);

    /** Removes the registration {@code runId} holds at {@code ip}. */
    @DELETE
    Response deregister(@PathParam("ip") String ip, @QueryParam("run_id") String runId);
}
