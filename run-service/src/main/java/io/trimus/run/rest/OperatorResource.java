package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.run.service.AccountService;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.List;
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

    /** An operator account in the list. */
    public record OperatorEntry(UUID userId, String email, boolean passwordSet) {
    }

    /** The list of operator accounts. */
    public record OperatorList(List<OperatorEntry> operators) {
    }

    /** Every operator account (tokens are under /api/tokens). */
    @GET
    @Allowed(Access.OPERATOR)
    public Uni<OperatorList> list() {
        return accounts.operators().map(users -> new OperatorList(users.stream()
                .map(u -> new OperatorEntry(u.id, u.email, u.passwordHash != null)).toList()));
    }

    /** Takes the operator role away; the last operator account cannot be removed (409). */
    @DELETE
    @Path("/{email}")
    @Allowed(Access.OPERATOR)
    public Uni<Response> removeOperator(@PathParam("email") String email) {
        return accounts.removeOperator(email).replaceWith(Response.noContent().build());
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
