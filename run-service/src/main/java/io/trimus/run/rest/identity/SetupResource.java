package io.trimus.run.rest.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.service.identity.PasswordSetup;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/setup}: sets a first password through a one-time setup link. */
@Path("/api/setup")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SetupResource {
    private final PasswordSetup setups;
    private final CurrentCaller caller;

    SetupResource(PasswordSetup setups, CurrentCaller caller) {
        this.setups = setups;
        this.caller = caller;
    }

    /** Body of POST /api/setup: the secret of the setup link (after {@code #}) and the new password. */
    public record Setup(String token, String password) {
    }

    /** Whose password was set. */
    public record SetupDone(String email) {
    }

    @POST
    @Allowed(Access.ANYONE)
    public Uni<SetupDone> setup(Setup body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"token\": \"…\", \"password\": \"…\"}");
        }
        return setups.completeSetup(body.token(), body.password(), caller.source())
                .map(user -> new SetupDone(user.email));
    }
}
