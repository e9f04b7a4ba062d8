package io.trimus.run.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.service.secret.SecretService;
import io.trimus.run.service.secret.SecretService.SecretInfo;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.List;

/** HTTP face of company secrets: values go in and never come out. */
@Path("/api/companies/{company_id}/secrets")
@Produces(MediaType.APPLICATION_JSON)
public class SecretResource {
    private final SecretService secrets;

    SecretResource(SecretService secrets) {
        this.secrets = secrets;
    }

    /**
     * Body of PUT …/secrets/{name}: the value, the agent ids it is granted to (absent: every agent) and, for a masked
     * secret, {@code masked: true} with the hosts (and optionally the headers) its real value may be sent in.
     */
    public record PutSecret(String value, List<String> agents, Boolean masked, List<String> hosts,
                            List<String> headers) {
        @Override
        public String toString() {
            return "PutSecret[value=" + io.trimus.events.secrets.Redactor.MARK + ", agents=" + agents + ", masked="
                    + masked + ", hosts=" + hosts + ", headers=" + headers + "]";
        }
    }

    /** The company's secrets: names, grants, masks and timestamps. */
    public record SecretList(List<SecretInfo> secrets) {
    }

    @PUT
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<SecretInfo>> put(@PathParam("company_id") String companyId, @PathParam("name") String name,
                                             PutSecret body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"value\": \"…\"}");
        }
        return secrets.put(Ids.parse("company_id", companyId), name, new SecretService.Put(body.value(),
                        body.agents(), body.masked(), body.hosts(), body.headers()))
                .map(stored -> stored.created()
                ? RestResponse.ResponseBuilder.<SecretInfo>created(
                        URI.create("/api/companies/" + companyId + "/secrets/" + name)).entity(stored.secret()).build()
                : RestResponse.ok(stored.secret()));
    }

    @GET
    @Allowed(Access.ADMIN)
    public Uni<SecretList> list(@PathParam("company_id") String companyId) {
        return secrets.list(Ids.parse("company_id", companyId)).map(SecretList::new);
    }

    @DELETE
    @Path("/{name}")
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<Void>> delete(@PathParam("company_id") String companyId, @PathParam("name") String name) {
        return secrets.delete(Ids.parse("company_id", companyId), name).map(v -> RestResponse.noContent());
    }
}
