package io.trimus.egress.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.egress.audit.AuditOutbox;
import io.trimus.egress.ca.AuthoritySummary;
import io.trimus.egress.ca.EgressAuthority;
import io.trimus.egress.ca.EgressCaService;
import io.trimus.events.EgressCa;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.Instant;
import java.util.List;

/**
 * HTTP face of the egress CA: its certificate (never its key) for the adapter service to place in sandboxes, the list
 * of stored CAs, and rotation. Operator endpoints; sign-in comes later (docs/egress.md).
 */
@Path(EgressCa.PATH)
public class EgressCaResource {
    /** The media type of the certificate. */
    public static final String PEM = "application/x-pem-file";
    /** The header naming the served certificate's fingerprint. */
    public static final String FINGERPRINT_HEADER = "X-Trimus-Ca-Fingerprint";

    private final EgressCaService authorities;
    private final AuditOutbox audit;

    EgressCaResource(EgressCaService authorities, AuditOutbox audit) {
        this.authorities = authorities;
        this.audit = audit;
    }

    /** A stored CA: {@code active} is the one new sandboxes get; retired ones still serve sandboxes started before. */
    public record AuthorityView(String fingerprint, Instant createdAt, Instant retiredAt, boolean active) {
        static AuthorityView of(AuthoritySummary summary) {
            return new AuthorityView(summary.fingerprint(), summary.createdAt(), summary.retiredAt(), summary.active());
        }

        static AuthorityView active(EgressAuthority authority) {
            return new AuthorityView(authority.fingerprint(), authority.createdAt(), null, true);
        }
    }

    /** The active CA certificate as PEM, with its fingerprint in {@value #FINGERPRINT_HEADER}. */
    @GET
    @Produces(PEM)
    @Allowed(Access.ANYONE)
    public Uni<RestResponse<String>> certificate() {
        return authorities.current().map(ca -> RestResponse.ResponseBuilder.ok(ca.certificatePem(), PEM)
                .header(FINGERPRINT_HEADER, ca.fingerprint()).build());
    }

    /** Every stored CA, newest first. */
    @GET
    @Path("authorities")
    @Produces(MediaType.APPLICATION_JSON)
    @Allowed(Access.OPERATOR)
    public Uni<List<AuthorityView>> list() {
        return authorities.authorities().map(all -> all.stream().map(AuthorityView::of).toList());
    }

    /** Replaces the active CA by a new one; 201 with the new one. */
    @POST
    @Path("rotation")
    @Produces(MediaType.APPLICATION_JSON)
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<AuthorityView>> rotate() {
        // the caller is taken here: the rotation runs its transaction on a context of its own
        return authorities.rotate(audit.stamp())
                .map(ca -> RestResponse.status(RestResponse.Status.CREATED, AuthorityView.active(ca)));
    }
}
