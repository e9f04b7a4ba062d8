package io.trimus.egress.rest;

import io.trimus.commons.problem.Problem;
import io.trimus.egress.policy.document.DocumentFormat;
import io.trimus.egress.policy.document.PolicyDocumentService;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses a policy document whose declared length ({@code Content-Length}) exceeds the bound before its body is read;
 * a body sent without one is held to the same bound once read ({@link DocumentFormat#read}), within the HTTP layer's
 * own limit ({@code quarkus.http.limits.max-body-size}). Runs after access control: a stranger learns nothing here.
 */
public class PolicyDocumentSizeFilter {
    private final PolicyDocumentService documents;

    PolicyDocumentSizeFilter(PolicyDocumentService documents) {
        this.documents = documents;
    }

    @ServerRequestFilter(priority = Priorities.AUTHORIZATION + 1)
    public Response refuseTooLong(ContainerRequestContext request, ResourceInfo resource) {
        if (resource.getResourceClass() != PolicyDocumentResource.class) {
            return null;
        }
        String declared = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        int max = documents.bounds().maxBytes();
        try {
            if (declared == null || Long.parseLong(declared.strip()) <= max) {
                return null;
            }
        } catch (NumberFormatException e) {
            return null; // the HTTP layer refuses a malformed length itself
        }
        var problem = DocumentFormat.tooLarge(max).problem();
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }
}
