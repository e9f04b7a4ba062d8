package io.trimus.egress.tunnelling;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.sandbox.IpAddresses;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import java.util.UUID;

/**
 * What a run's notes should say about its names, for the adapter service before it reports the run's end:
 * {@code GET /internal/sandboxes/{ip}/notes?run_id=…} → {@code {"notes": [...]}}, one note per base domain this
 * replica suspected of tunnelling for that sandbox (empty when none, or when the sandbox is unknown here).
 */
@Path("/internal/sandboxes/{ip}/notes")
@Produces(MediaType.APPLICATION_JSON)
public class TunnellingNotesResource {
    private final TunnellingWatch watch;

    TunnellingNotesResource(TunnellingWatch watch) {
        this.watch = watch;
    }

    /** The notes of the sandbox at {@code ip} for run {@code run_id}. */
    public record Notes(List<String> notes) {
    }

    @GET
    @Allowed(Access.SERVICE)
    public Notes notes(@PathParam("ip") String ip, @QueryParam("run_id") String runId) {
        UUID run = Ids.parse("run_id", runId);
        String address = IpAddresses.canonical(ip).orElseThrow(() ->
                ProblemException.invalidValue("ip", ip, "is not an IPv4 or IPv6 address"));
        return new Notes(watch.notes(address, run));
    }
}
