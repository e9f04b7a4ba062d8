package io.trimus.run.rest.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.run.service.identity.OperatorService;
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

/**
 * The platform's operators, made by operators; the answer carries a one-time setup link when the call made one (a new
 * account, or one without a password that was no operator yet).
 */
@Path("/api/operators")
@Produces(MediaType.APPLICATION_JSON)
public class OperatorResource {
    private final OperatorService operators;

    OperatorResource(OperatorService operators) {
        this.operators = operators;
    }

    /** An operator account; {@code setup_url} when this call made one. */
    public record OperatorView(UUID userId, String email, boolean passwordSet, URI setupUrl) {
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
        return operators.operators().map(users -> new OperatorList(users.stream()
                .map(u -> new OperatorEntry(u.id, u.email, u.passwordHash != null)).toList()));
    }

    /** Takes the operator role away; the last operator account cannot be removed (409). */
    @DELETE
    @Path("/{email}")
    @Allowed(Access.OPERATOR)
    public Uni<Response> removeOperator(@PathParam("email") String email) {
        return operators.removeOperator(email).replaceWith(Response.noContent().build());
    }

    /** Makes the person an operator (idempotent). */
    @PUT
    @Path("/{email}")
    @Allowed(Access.OPERATOR)
    public Uni<OperatorView> putOperator(@PathParam("email") String email) {
        return operators.putOperator(email).map(account -> new OperatorView(account.user().id, account.user().email,
                account.user().passwordHash != null, account.link() == null ? null : account.link().url()));
    }
}
