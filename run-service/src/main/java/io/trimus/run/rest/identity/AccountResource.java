package io.trimus.run.rest.identity;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.run.service.identity.OperatorService;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Instant;

/**
 * What an operator does with an account (a company admin cannot; docs/access.md). {@code POST
 * /api/accounts/{email}/setup-link}: a fresh setup link for an account without a password (the person lost theirs, or
 * it expired); the account's older links end, so it is a deliberate act of its own, never a side effect of changing a
 * role. {@code POST /api/accounts/{email}/vouch}: the operator vouches for the person behind an account a company's
 * invitation made, so another company may add it; a password that company's link set ends with its sessions, and the
 * answer carries a fresh link for the operator to hand to the person.
 */
@Path("/api/accounts/{email}")
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {
    private final OperatorService operators;

    AccountResource(OperatorService operators) {
        this.operators = operators;
    }

    /** The link just made: shown this once. */
    public record SetupLinkView(String email, URI setupUrl, Instant expiresAt) {
    }

    /**
     * Who vouches for the account now; {@code password_removed} when the vouch ended a password a company's link set;
     * {@code setup_url} and {@code expires_at} when the call made a link (shown this once), left out otherwise.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record VouchView(String email, String vouchedBy, boolean passwordRemoved, URI setupUrl, Instant expiresAt) {
    }

    @POST
    @Path("/setup-link")
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<SetupLinkView>> issue(@PathParam("email") String email) {
        return operators.issueSetupLink(email).map(account -> RestResponse.status(RestResponse.Status.CREATED,
                new SetupLinkView(account.user().email, account.link().url(), account.link().expiresAt())));
    }

    /** 200 with who vouches now; a fresh link when the account was a company's invitee; 404 no such account. */
    @POST
    @Path("/vouch")
    @Allowed(Access.OPERATOR)
    public Uni<VouchView> vouch(@PathParam("email") String email) {
        return operators.vouch(email).map(vouched -> new VouchView(vouched.user().email, vouched.user().vouchedBy,
                vouched.passwordRemoved(), vouched.link() == null ? null : vouched.link().url(),
                vouched.link() == null ? null : vouched.link().expiresAt()));
    }
}
