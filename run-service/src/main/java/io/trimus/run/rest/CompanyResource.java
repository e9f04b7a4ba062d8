package io.trimus.run.rest;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.auth.Caller;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.company.Company;
import io.trimus.run.service.company.CompanyService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** HTTP face of companies: create, read, and list them page by page. */
@Path("/api/companies")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CompanyResource {
    private static final int DEFAULT_LIMIT = 50;

    private final CompanyService companies;
    private final TrimusConfig config;
    private final CurrentCaller caller;

    CompanyResource(CompanyService companies, TrimusConfig config, CurrentCaller caller) {
        this.companies = companies;
        this.config = config;
        this.caller = caller;
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
    @Allowed(Access.OPERATOR)
    public Uni<RestResponse<CompanyView>> create(CreateCompany body) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"name\": \"…\"}");
        }
        return companies.create(body.name()).map(c -> RestResponse.ResponseBuilder
                .<CompanyView>created(URI.create("/api/companies/" + c.id)).entity(CompanyView.of(c)).build());
    }

    @GET
    @Path("/{company_id}")
    @Allowed(Access.VIEWER)
    public Uni<CompanyView> get(@PathParam("company_id") String companyId) {
        return companies.get(Ids.parse("company_id", companyId)).map(CompanyView::of);
    }

    /**
     * The companies the caller belongs to (an operator: all), in creation order, oldest first; {@code limit} 1 to TRIMUS_RUN_LIST_MAX_LIMIT (default 50). Page on
     * with {@code after} = the id of the last company received; a short page is the last one.
     */
    @GET
    @Allowed(Access.SIGNED_IN)
    public Uni<List<CompanyView>> list(@QueryParam("limit") String limit, @QueryParam("after") String after) {
        int size = Limits.parse(limit, DEFAULT_LIMIT, config.run().listMaxLimit());
        UUID last = after == null || after.isBlank() ? null : Ids.parse("after", after.strip());
        Caller who = caller.require();
        List<UUID> among = who.operator() ? null
                : who.companies().stream().map(Caller.Membership::companyId).toList();
        return companies.pageAmong(among, last, size).map(list -> list.stream().map(CompanyView::of).toList());
    }
}
