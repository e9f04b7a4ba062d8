package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.run.service.OperatorService;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Instant;

/**
 * {@code POST /api/accounts/{email}/setup-link}: an operator hands out a fresh setup link for an account without a
 * password (the person lost theirs, or it expired). The account's older links end, so it is a deliberate act of its
 * own, never a side effect of changing a role; a company admin cannot do it (docs/access.md).
 */
@Path("/api/accounts/{email}/setup-link")
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {
    private final OperatorService operators;

    AccountResource(OperatorService operators) {
        this.operators = operators;
    }

    /** The link just made: shown this once. */
    public record SetupLinkView(String email, URI setupUrl, Instant expiresAt) {
    }

    @POST
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<SetupLinkView>> issue(@PathParam("email") String email) {
        return operators.issueSetupLink(email).map(account -> RestResponse.status(RestResponse.Status.CREATED,
                new SetupLinkView(account.user().email, account.link().url(), account.link().expiresAt())));
    }
}
