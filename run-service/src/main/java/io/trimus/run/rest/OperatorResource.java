package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.run.service.AccountService;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.net.URI;
import java.util.UUID;

/** The platform's operators, made by operators; a new account's answer carries its one-time setup link. */
@Path("/api/operators")
@Produces(MediaType.APPLICATION_JSON)
public class OperatorResource {
    private final AccountService accounts;

    OperatorResource(AccountService accounts) {
        this.accounts = accounts;
    }

    /** An operator account; {@code setup_url} when it has no password yet. */
    public record OperatorView(UUID userId, String email, URI setupUrl) {
    }

    /** Makes the person an operator (idempotent). */
    @PUT
    @Path("/{email}")
    @Allowed(Access.OPERATOR)
    public Uni<OperatorView> putOperator(@PathParam("email") String email) {
        return accounts.putOperator(email).map(link -> new OperatorView(link.user().id, link.user().email,
                link.url()));
    }
}
