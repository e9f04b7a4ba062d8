package io.trimus.egress.sandbox;

import io.trimus.commons.problem.ProblemException;
import io.trimus.events.SandboxRegistration;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * Registration of sandboxes with the resolver, for the adapter service only: it registers a sandbox's address
 * before the sandbox's process can send a packet (the call is synchronous, so the first query is already
 * attributed) and deregisters it when the sandbox ends. Deployments restrict {@code /internal} to the adapter
 * service by network policy; it is not part of the public API.
 */
@Path("/internal/sandboxes")
@Produces(MediaType.APPLICATION_JSON)
public class SandboxResource {
    private static final Logger LOG = Logger.getLogger(SandboxResource.class);

    private final SandboxRegistry sandboxes;

    SandboxResource(SandboxRegistry sandboxes) {
        this.sandboxes = sandboxes;
    }

    /** A registered sandbox as the API shows it. */
    public record SandboxView(String ip, UUID companyId, UUID agentId, UUID runId, String containerId) {
        static SandboxView of(Sandbox s) {
            return new SandboxView(s.ip(), s.companyId(), s.agentId(), s.runId(), s.containerId());
        }
    }

    /** Registers (or re-registers) the sandbox whose packets come from {@code ip}. */
    @PUT
    @Path("/{ip}")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<Void> register(@PathParam("ip") String ip, SandboxRegistration body) {
        String address = address(ip);
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"company_id\", \"agent_id\", \"run_id\", "
                    + "\"container_id\"}");
        }
        require("company_id", body.companyId());
        require("agent_id", body.agentId());
        require("run_id", body.runId());
        if (body.containerId() == null || body.containerId().isBlank()) {
            throw ProblemException.invalid("container_id", "is required");
        }
        if (body.containerId().length() > 128) {
            throw ProblemException.invalid("container_id", "must be at most 128 characters");
        }
        Sandbox sandbox = new Sandbox(address, body.companyId(), body.agentId(), body.runId(), body.containerId());
        Sandbox previous = sandboxes.lookup(address).orElse(null);
        sandboxes.register(sandbox);
        if (previous != null && !previous.equals(sandbox)) {
            LOG.infof("Sandbox address %s moved from container %s (run %s) to container %s (run %s)", address,
                    previous.containerId(), previous.runId(), sandbox.containerId(), sandbox.runId());
        }
        return RestResponse.noContent();
    }

    /** Forgets the sandbox at {@code ip}; its packets are unattributed from now on. */
    @DELETE
    @Path("/{ip}")
    public RestResponse<Void> deregister(@PathParam("ip") String ip) {
        String address = address(ip);
        if (!sandboxes.deregister(address)) {
            throw ProblemException.notFound("sandbox at", address);
        }
        return RestResponse.noContent();
    }

    /** Every registered sandbox, by address. */
    @GET
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
