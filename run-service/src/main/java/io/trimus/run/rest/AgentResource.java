package io.trimus.run.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.adapter.AdapterType;
import io.trimus.run.repository.agent.Agent;
import io.trimus.run.service.agent.AgentService;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.run.service.agent.ProviderReach;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** HTTP face of a company's agents. */
@Path("/api/companies/{company_id}/agents")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AgentResource {
    private final AgentService agents;
    private final ProviderReach providerReach;

    AgentResource(AgentService agents, ProviderReach providerReach) {
        this.agents = agents;
        this.providerReach = providerReach;
    }

    /** Body of POST …/agents. */
    public record CreateAgent(String name, String adapterType, JsonNode adapterConfig) {
    }

    /**
     * An agent as the API shows it; {@code isolation} says where its code runs (host, container, off-host). The
     * response that creates it also carries {@code warnings}: what will keep it from working, e.g. its provider's API
     * host missing from the company's egress allowlist (empty when nothing).
     */
    public record AgentView(UUID id, UUID companyId, String name, String adapterType, String isolation,
                            JsonNode adapterConfig, Instant createdAt,
                            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> warnings) {
    }

    @POST
    @Allowed(Access.ADMIN)
    public Uni<RestResponse<AgentView>> create(@PathParam("company_id") String companyId, CreateAgent body,
                                               @HeaderParam(BearerCredentials.HEADER) String authorization) {
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"name\", \"adapter_type\", \"adapter_config\"}");
        }
        UUID company = Ids.parse("company_id", companyId);
        return agents.create(company, body.name(), body.adapterType(), body.adapterConfig())
                // after the commit: the allowlist call holds no transaction open
                .flatMap(a -> providerReach.warnings(company, AdapterType.fromWire(a.adapterType).orElseThrow(),
                        authorization)
                        .map(warnings -> RestResponse.ResponseBuilder
                                .<AgentView>created(URI.create("/api/companies/" + a.companyId + "/agents/" + a.id))
                                .entity(view(a, warnings)).build()));
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<List<AgentView>> list(@PathParam("company_id") String companyId) {
        return agents.list(Ids.parse("company_id", companyId)).map(list -> list.stream().map(this::view).toList());
    }

    @GET
    @Path("/{agent_id}")
    @Allowed(Access.VIEWER)
    public Uni<AgentView> get(@PathParam("company_id") String companyId, @PathParam("agent_id") String agentId) {
        return agents.get(Ids.parse("company_id", companyId), Ids.parse("agent_id", agentId)).map(this::view);
    }

    private AgentView view(Agent a) {
        return view(a, null);
    }

    private AgentView view(Agent a, List<String> warnings) {
        String isolation = AdapterType.fromWire(a.adapterType).map(AdapterType::isolation).orElse("unknown");
        return new AgentView(a.id, a.companyId, a.name, a.adapterType, isolation, a.adapterConfig, a.createdAt,
                warnings);
    }
}
