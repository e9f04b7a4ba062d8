package io.trimus.run.rest.a2a;

import io.trimus.commons.problem.Problem;
import io.trimus.run.config.TrimusConfig;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * TRIMUS_A2A_MAX_REQUEST_BYTES before a byte of the body is read: a JSON-RPC request whose Content-Length is over it is
 * answered 413 at once (request filters run before the body is read), so a caller cannot make run-service hold a
 * large body only to refuse it. A body without a length (chunked) is read up to the HTTP server's limit
 * ({@code quarkus.http.limits.max-body-size}, 4M), where the server stops reading, and then checked the same way by
 * {@link A2aResource}.
 */
public class A2aBodyLimit {
    private final int maxBytes;

    A2aBodyLimit(TrimusConfig config) {
        this.maxBytes = config.a2a().maxRequestBytes();
    }

    @ServerRequestFilter
    public Response refuseDeclaredTooLarge(ContainerRequestContext request) {
        if (!"POST".equals(request.getMethod()) || !request.getUriInfo().getPath().startsWith("/a2a/")) {
            return null;
        }
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        long declared;
        try {
            declared = length == null ? -1 : Long.parseLong(length.strip());
        } catch (NumberFormatException e) {
            return null;   // the HTTP server refuses a malformed length itself
        }
        if (declared <= maxBytes) {
            return null;
        }
        return Response.status(413).type(Problem.MEDIA_TYPE).entity(Problem.of(413, "Request too large",
                "the JSON-RPC request declares " + declared + " bytes (Content-Length), the limit is " + maxBytes
                        + " (TRIMUS_A2A_MAX_REQUEST_BYTES)", null, null)).build();
    }
}
