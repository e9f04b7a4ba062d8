package io.trimus.egress.sandbox.registration;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.masks.MaskOpener;
import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.sandbox.IpAddresses;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.SandboxRegistration;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * Registration of sandboxes with the resolver, for the adapter service only. egress-service is the arbiter of sandbox
 * addresses: the adapter claims an address for its run before it creates the container there (409 when another run
 * holds it: it tries the next), confirms the container id before the container starts (the call is synchronous, so
 * the first query is already attributed), and deregisters it with its run id when the sandbox ends. Deployments
 * restrict {@code /internal} to the adapter service by network policy; it is not part of the public API.
 */
@Path("/internal/sandboxes")
@Produces(MediaType.APPLICATION_JSON)
public class SandboxResource {
    private final SandboxRegistry sandboxes;
    private final SandboxService service;
    private final MaskOpener masks;

    SandboxResource(SandboxRegistry sandboxes, SandboxService service, MaskOpener masks) {
        this.sandboxes = sandboxes;
        this.service = service;
        this.masks = masks;
    }

    /** A registered sandbox as the API shows it. */
    public record SandboxView(String ip, UUID companyId, UUID agentId, UUID runId, String containerId) {
        static SandboxView of(Sandbox s) {
            return new SandboxView(s.ip(), s.companyId(), s.agentId(), s.runId(), s.containerId());
        }
    }

    /**
     * Registers the run's sandbox at {@code ip}: claims a free address, or updates the run's own registration (e.g.
     * with the container id once the container exists). 409 when another run holds the address. Sealed
     * {@code masks} (with the {@code ca} fingerprint) replace the run's masked secrets: held in memory opened, stored
     * only sealed as they arrived, so the other replicas and a restarted egress-service open them too.
     */
    @PUT
    @Path("/{ip}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.SERVICE)
    public Uni<RestResponse<Void>> register(@PathParam("ip") String ip, SandboxRegistration body) {
        String address = address(ip);
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"company_id\", \"agent_id\", \"run_id\", "
                    + "\"container_id\"}");
        }
        require("company_id", body.companyId());
        require("agent_id", body.agentId());
        require("run_id", body.runId());
        if (body.containerId() != null && (body.containerId().isBlank() || body.containerId().length() > 128)) {
            throw ProblemException.invalid("container_id", "must be 1 to 128 characters, or absent until the"
                    + " container exists");
        }
        RunMasks opened = body.masks() == null ? null : masks.open(body.runId(), address, body.masks(), body.ca());
        return service.register(new Sandbox(address, body.companyId(), body.agentId(), body.runId(),
                        body.containerId()), opened, opened == null ? null : new SealedMasks(body.masks(), body.ca()))
                .map(stored -> RestResponse.noContent());
    }

    /**
     * Forgets the sandbox at {@code ip}; its packets are unattributed from now on. Only the run that holds the address
     * can: 409 when another run holds it, 404 when nothing does.
     */
    @DELETE
    @Path("/{ip}")
    @Allowed(Access.SERVICE)
    public Uni<RestResponse<Void>> deregister(@PathParam("ip") String ip, @QueryParam("run_id") String runId) {
        String address = address(ip);
        if (runId == null || runId.isBlank()) {
            throw ProblemException.invalid("run_id", "is required: the run that holds the address");
        }
        UUID run;
        try {
            run = UUID.fromString(runId);
        } catch (IllegalArgumentException e) {
            throw ProblemException.invalidValue("run_id", runId, "is not a UUID");
        }
        return service.deregister(address, run).map(done -> RestResponse.noContent());
    }

    /** Every registered sandbox, by address. */
    @GET
    @Allowed(Access.SERVICE)
    public List<SandboxView> list() {
        return sandboxes.all().stream()
                .map(SandboxView::of)
                .sorted(Comparator.comparing(SandboxView::ip))
                .toList();
    }

    private static String address(String ip) {
        return IpAddresses.canonical(ip).orElseThrow(() ->
                ProblemException.invalidValue("ip", ip, "is not an IPv4 or IPv6 address"));
    }

    private static void require(String field, UUID value) {
        if (value == null) {
            throw ProblemException.invalid(field, "is required");
        }
    }
}
