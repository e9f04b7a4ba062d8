package io.trimus.egress.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.policy.document.DocumentFormat;
import io.trimus.egress.policy.document.PolicyDocument;
import io.trimus.egress.policy.document.PolicyDocumentService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.UUID;

/**
 * HTTP face of policy as code (issue 31): a company's whole egress policy (mode, its allowlist, every agent's own
 * list) as one JSON or YAML document, read by any role of the company and replaced at once by its admins, who may ask
 * first what a document would change ({@code ?dry_run=true}). The format follows {@code Accept} on GET and {@code
 * Content-Type} on PUT; the answer of a PUT (the diff) follows {@code Accept}. See docs/egress.md, "Policy as code".
 */
@Path("/api/companies/{company_id}/egress/policy-document")
public class PolicyDocumentResource {
    private static final String YAML = "application/yaml";
    private static final String X_YAML = "application/x-yaml";
    private static final String TEXT_YAML = "text/yaml";

    private final PolicyDocumentService documents;

    PolicyDocumentResource(PolicyDocumentService documents) {
        this.documents = documents;
    }

    /** The company's policy as a document, in the form {@code Accept} asks for (JSON unless it asks for YAML). */
    @GET
    @Produces({MediaType.APPLICATION_JSON, YAML, X_YAML, TEXT_YAML})
    @Allowed(Access.VIEWER)
    public Uni<Response> get(@PathParam("company_id") String companyId, @Context HttpHeaders headers) {
        UUID company = Ids.parse("company_id", companyId);
        DocumentFormat format = accepted(headers);
        return documents.get(company).map(document -> answer(format, format.write(document.view())));
    }

    /**
     * Makes the document in the body the company's whole policy, or with {@code dry_run=true} only says what it would
     * change; answers the diff either way. Nothing changes unless the whole document is valid.
     */
    @PUT
    @Consumes({MediaType.APPLICATION_JSON, YAML, X_YAML, TEXT_YAML})
    @Produces({MediaType.APPLICATION_JSON, YAML, X_YAML, TEXT_YAML})
    @Allowed(Access.ADMIN)
    public Uni<Response> replace(@PathParam("company_id") String companyId, @QueryParam("dry_run") String dryRun,
                                 @Context HttpHeaders headers, byte[] body) {
        UUID company = Ids.parse("company_id", companyId);
        boolean dry = dryRun(dryRun);
        DocumentFormat in = headers.getMediaType() == null ? DocumentFormat.JSON
                : DocumentFormat.of(headers.getMediaType().toString()).orElse(DocumentFormat.JSON);
        DocumentFormat out = accepted(headers);
        PolicyDocument document = documents.parse(in.read(body, documents.bounds().maxBytes()));
        return documents.replace(company, document, dry)
                .map(diff -> answer(out, out.write(diff.view(dry, !dry && !diff.isEmpty()))));
    }

    private static boolean dryRun(String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ProblemException.invalidValue("dry_run", value, "must be true or false");
    }

    /** The first form {@code Accept} names, by preference; JSON for any, or without the header. */
    private static DocumentFormat accepted(HttpHeaders headers) {
        for (MediaType type : headers.getAcceptableMediaTypes()) {
            if (type.isWildcardType() || type.isWildcardSubtype() && type.getType().equals("application")) {
                return DocumentFormat.JSON;
            }
            if (type.isWildcardSubtype() && type.getType().equals("text")) {
                return DocumentFormat.YAML;
            }
            var format = DocumentFormat.of(type.getType() + "/" + type.getSubtype());
            if (format.isPresent()) {
                return format.get();
            }
        }
        return DocumentFormat.JSON;
    }

    private static Response answer(DocumentFormat format, byte[] body) {
        return Response.ok(body, format.mediaType()).build();
    }
}
