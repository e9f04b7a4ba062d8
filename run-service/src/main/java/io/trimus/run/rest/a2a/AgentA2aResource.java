package io.trimus.run.rest.a2a;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.repository.agent.Agent;
import io.trimus.run.service.agent.AgentService;
import io.trimus.run.service.a2a.A2aPublishing;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** HTTP face of an agent's A2A publication: whether the company serves it over A2A, and where. */
@Path("/api/companies/{company_id}/agents/{agent_id}/a2a")
@Produces(MediaType.APPLICATION_JSON)
public class AgentA2aResource {
    private final A2aPublishing publishing;
    private final AgentService agents;
    private final A2aUrls urls;

    AgentA2aResource(A2aPublishing publishing, AgentService agents, A2aUrls urls) {
        this.publishing = publishing;
        this.agents = agents;
        this.urls = urls;
    }

    /** Body of PUT …/a2a. */
    public record A2aPublication(Boolean published) {
    }

    /**
     * An agent's A2A publication: whether it is served, its JSON-RPC url, its agent card's url, and how to make a token
     * that may call this agent's A2A endpoint and nothing else (to hand to another company).
     */
    public record A2aPublicationView(boolean published, String url, String cardUrl, String tokenHint) {
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.ADMIN)
    public Uni<A2aPublicationView> put(@PathParam("company_id") String companyId,
                                       @PathParam("agent_id") String agentId, A2aPublication body) {
        if (body == null || body.published() == null) {
            throw ProblemException.invalid("published", "is required: true or false");
        }
        return publishing.publish(Ids.parse("company_id", companyId), Ids.parse("agent_id", agentId),
                body.published()).map(this::view);
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<A2aPublicationView> get(@PathParam("company_id") String companyId,
                                       @PathParam("agent_id") String agentId) {
        return agents.get(Ids.parse("company_id", companyId), Ids.parse("agent_id", agentId))
                .map(this::view);
    }

    private A2aPublicationView view(Agent agent) {
        return new A2aPublicationView(agent.a2aPublished, urls.endpoint(agent.companyId, agent.id),
                urls.card(agent.companyId, agent.id), "a caller outside this company gets an A2A-only token: POST"
                + " /api/companies/" + agent.companyId + "/tokens {\"name\": \"…\", \"a2a_agents\": [\"" + agent.id
                + "\"]} (an admin of this company); it may call this agent's A2A endpoint and nothing else");
    }
}
