package io.trimus.run.rest.identity;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.events.auth.Caller;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/me}: who the presented credential speaks for. The dashboard shows it; egress-service asks it for
 * every request it serves, so a revoked token stops working in every service at once.
 */
@Path("/api/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {
    private final CurrentCaller caller;

    MeResource(CurrentCaller caller) {
        this.caller = caller;
    }

    @GET
    @Allowed(Access.SIGNED_IN)
    public Caller me() {
        return caller.require();
    }
}
