package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.run.repository.Company;
import io.trimus.run.service.CompanyService;
import io.trimus.run.service.Ids;
import io.trimus.run.service.ProblemException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Instant;
import java.util.UUID;

/** HTTP face of companies. */
@Path("/api/companies")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CompanyResource {
    private final CompanyService companies;

    CompanyResource(CompanyService companies) {
        this.companies = companies;
    }

    /** Body of POST /api/companies. */
    public record CreateCompany(String name) {
    }

    /** A company as the API shows it. */
    public record CompanyView(UUID id, String name, Instant createdAt) {
        static CompanyView of(Company c) {
            return new CompanyView(c.id, c.name, c.createdAt);
        }
    }

    @POST
    public Uni<RestResponse<CompanyView>> create(CreateCompany body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"name\": \"…\"}");
        }
        return companies.create(body.name()).map(c -> RestResponse.ResponseBuilder
                .<CompanyView>created(URI.create("/api/companies/" + c.id)).entity(CompanyView.of(c)).build());
    }

    @GET
    @Path("/{company_id}")
    public Uni<CompanyView> get(@PathParam("company_id") String companyId) {
        return companies.get(Ids.parse("company_id", companyId)).map(CompanyView::of);
    }
}
